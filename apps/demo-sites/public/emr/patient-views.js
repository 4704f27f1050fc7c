// The Patients pages: search, the "Add new patient" form with inline validation and a slow
// save (the server answers after ~700 ms so agents have to wait for the result), and the
// recent list. The server validates again; these checks exist for the user's sake.

const FIELDS = ['firstName', 'lastName', 'dateOfBirth', 'sex', 'phone'];
const ERROR_IDS = {
  firstName: 'first-name-error',
  lastName: 'last-name-error',
  dateOfBirth: 'date-of-birth-error',
  sex: 'sex-error',
  phone: 'phone-error',
};
const SEX_LABELS = { female: 'Female', male: 'Male', other: 'Other', unknown: 'Unknown', '': '' };

/** MM/DD/YYYY (or ISO) that names a real day from 1900 on. */
function isValidDateOfBirth(text) {
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!us && !iso) return false;
  const [year, month, day] = us
    ? [Number(us[3]), Number(us[1]), Number(us[2])]
    : [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  if (year < 1900) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

function validate(values) {
  const errors = {};
  if (!values.firstName) errors.firstName = 'First name is required.';
  if (!values.lastName) errors.lastName = 'Last name is required.';
  if (values.dateOfBirth && !isValidDateOfBirth(values.dateOfBirth)) {
    errors.dateOfBirth = 'Enter a valid date of birth as MM/DD/YYYY.';
  }
  if (values.phone && !/^[0-9()+\-.\s]{7,20}$/.test(values.phone)) {
    errors.phone = 'Enter a valid phone number.';
  }
  return errors;
}

/** ISO date to the MM/DD/YYYY users typed. */
function formatDate(iso) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? `${match[2]}/${match[3]}/${match[1]}` : '';
}

async function fetchPatients(query = '') {
  const url = query ? `/api/patients?q=${encodeURIComponent(query)}` : '/api/patients';
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  const body = await response.json();
  return body.patients;
}

export function initDashboard(root) {
  const count = root.querySelector('[data-patient-count]');
  fetchPatients().then(
    (patients) => (count.textContent = String(patients.length)),
    () => (count.textContent = 'unavailable'),
  );
}

export function initRecent(root) {
  const list = root.querySelector('#recent-patients');
  fetchPatients().then((patients) => {
    const items = [...patients].reverse().map((patient) => {
      const item = document.createElement('li');
      const dob = patient.dateOfBirth ? ` · born ${formatDate(patient.dateOfBirth)}` : '';
      item.textContent = `${patient.firstName} ${patient.lastName} (${patient.id})${dob}`;
      return item;
    });
    list.replaceChildren(...items);
  });
}

function renderResults(root, patients) {
  const body = root.querySelector('#patient-results tbody');
  const rows = patients.map((patient) => {
    const row = document.createElement('tr');
    const cells = [
      patient.id,
      `${patient.firstName} ${patient.lastName}`,
      formatDate(patient.dateOfBirth),
      SEX_LABELS[patient.sex] ?? patient.sex,
      patient.phone,
    ];
    for (const text of cells) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  body.replaceChildren(...rows);
  root.querySelector('#patient-results-empty').hidden = patients.length > 0;
}

/**
 * The add-patient form's behaviour, on its own so the staff-form variant can put the same form
 * behind another endpoint. `confirm` (the confirm-dialog variant) is asked before saving.
 */
function wireAddForm(root, { endpoint, savedMessage, confirm = null, onSaved = async () => {} }) {
  const form = root.querySelector('#add-patient-form');
  const saveButton = root.querySelector('#save-patient');
  const indicator = root.querySelector('#saving-indicator');
  const status = root.querySelector('#save-status');
  const saveError = root.querySelector('#save-error');
  let saving = false;

  const showErrors = (errors) => {
    for (const field of FIELDS) {
      const control = form.elements.namedItem(field);
      const message = root.querySelector(`#${ERROR_IDS[field]}`);
      if (errors[field]) {
        control.setAttribute('aria-invalid', 'true');
        message.textContent = errors[field];
        message.hidden = false;
      } else {
        control.removeAttribute('aria-invalid');
        message.textContent = '';
        message.hidden = true;
      }
    }
  };

  // Editing a field clears its error, as most form libraries do.
  form.addEventListener('input', (event) => {
    const control = event.target;
    if (!(control instanceof HTMLElement) || control.getAttribute('aria-invalid') !== 'true')
      return;
    control.removeAttribute('aria-invalid');
    const message = root.querySelector(`#${ERROR_IDS[control.getAttribute('name')]}`);
    if (message) {
      message.textContent = '';
      message.hidden = true;
    }
  });

  form.addEventListener('reset', () => {
    showErrors({});
    status.textContent = '';
  });

  const setSaving = (on) => {
    saving = on;
    saveButton.disabled = on;
    indicator.hidden = !on;
    if (on) form.setAttribute('aria-busy', 'true');
    else form.removeAttribute('aria-busy');
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (saving) return;
    const values = Object.fromEntries(
      FIELDS.map((field) => [field, String(form.elements.namedItem(field).value).trim()]),
    );
    const errors = validate(values);
    showErrors(errors);
    status.textContent = '';
    saveError.hidden = true;
    saveError.textContent = '';
    const firstInvalid = FIELDS.find((field) => errors[field]);
    if (firstInvalid) {
      form.elements.namedItem(firstInvalid).focus();
      return;
    }
    if (confirm && !(await confirm())) return;

    setSaving(true);
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(values),
      });
      const body = await response.json();
      if (!response.ok) {
        showErrors(body.error?.fields ?? {});
        throw new Error(body.error?.message ?? `the server answered ${response.status}`);
      }
      form.reset();
      // The list is current before the success message shows, so "saved" always means
      // "visible in the list" for whoever reads the page next.
      await onSaved().catch(() => undefined);
      setSaving(false);
      status.textContent = savedMessage(body);
    } catch (error) {
      setSaving(false);
      saveError.textContent = `Could not save the patient: ${error.message}`;
      saveError.hidden = false;
    }
  });
}

/** `options.confirm`: asked before a save (the confirm-dialog variant). */
export function initNewSearch(root, options = {}) {
  const searchForm = root.querySelector('#patient-search-form');
  const searchInput = root.querySelector('#patient-search');

  const refresh = async () => renderResults(root, await fetchPatients(searchInput.value.trim()));

  searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    refresh().catch(() => renderResults(root, []));
  });

  wireAddForm(root, {
    endpoint: '/api/patients',
    savedMessage: ({ patient }) =>
      `Patient ${patient.firstName} ${patient.lastName} saved successfully.`,
    confirm: options.confirm ?? null,
    onSaved: refresh,
  });

  refresh().catch(() => renderResults(root, []));
}

/**
 * The staff-form variant's page: the add-patient form as it is, labels and Save button
 * included, under a staff heading; it saves a staff member.
 */
export function initStaff(root) {
  const card = document
    .getElementById('view-new-search')
    .content.querySelector('#add-heading').parentElement;
  const section = card.cloneNode(true);
  section.querySelector('#add-heading').textContent = 'Add new staff member';
  root.querySelector('h1').after(section);
  wireAddForm(root, {
    endpoint: '/api/staff',
    savedMessage: ({ staffMember }) =>
      `Staff member ${staffMember.firstName} ${staffMember.lastName} saved successfully.`,
  });
}
