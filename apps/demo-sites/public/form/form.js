// Sends the appointment request to the demo API (so tests can read what was submitted)
// and shows back exactly what the server stored, field by field.

const LABELS = {
  fullName: 'Full name',
  email: 'Email',
  preferredDate: 'Preferred date',
  reason: 'Reason for visit',
  contactMethod: 'Preferred contact method',
  notes: 'Notes',
  reminders: 'Send me appointment reminders',
};

const form = document.getElementById('appointment-form');
const result = document.getElementById('result');
const status = document.getElementById('result-status');
const list = document.getElementById('submitted-values');
const submit = form.querySelector('button[type="submit"]');

// A site variant (src/variants.ts) changes one thing; its helpers load only when one is on, so
// the plain page makes no extra request.
const variant = document.documentElement.dataset.demoVariant ?? null;
const kit = variant ? await import('/demo-variant.js') : null;
if (variant === 'rename-submit') submit.textContent = 'Request appointment';
if (variant === 'extra-field') {
  const email = form.querySelector('#email').closest('.field');
  email.after(
    kit.optionalField({ id: 'preferred-date', name: 'preferredDate', label: 'Preferred date' }),
  );
}
if (variant === 'move-submit') form.querySelector('#form-heading').after(submit);

/** The text a user sees for a value: option and radio labels, not their codes. */
function displayValue(field, value) {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (field === 'reason') {
    return form.querySelector(`#reason option[value="${CSS.escape(value)}"]`)?.textContent ?? value;
  }
  if (field === 'contactMethod') {
    const radio = form.querySelector(`input[name="contactMethod"][value="${CSS.escape(value)}"]`);
    return radio?.parentElement?.textContent.trim() ?? value;
  }
  return value;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const values = {
    fullName: String(data.get('fullName') ?? '').trim(),
    email: String(data.get('email') ?? '').trim(),
    reason: String(data.get('reason') ?? ''),
    contactMethod: String(data.get('contactMethod') ?? ''),
    notes: String(data.get('notes') ?? '').trim(),
    reminders: data.get('reminders') === 'on',
    ...(data.has('preferredDate')
      ? { preferredDate: String(data.get('preferredDate') ?? '').trim() }
      : {}),
  };
  if (variant === 'confirm-dialog' && !(await kit.confirmFirst('Send this appointment request?')))
    return;
  submit.disabled = true;
  try {
    const response = await fetch('/api/form/submissions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(values),
    });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const { submission } = await response.json();
    const rows = Object.entries(submission.values).flatMap(([field, value]) => {
      const term = document.createElement('dt');
      term.textContent = LABELS[field] ?? field;
      const definition = document.createElement('dd');
      definition.dataset.field = field;
      definition.textContent = displayValue(field, value) || '—';
      return [term, definition];
    });
    list.replaceChildren(...rows);
    status.textContent = `Thanks, ${values.fullName}. We received your request.`;
  } catch (error) {
    list.replaceChildren();
    status.textContent = `Sorry, your request could not be sent: ${error.message}`;
  } finally {
    submit.disabled = false;
    result.hidden = false;
  }
});
