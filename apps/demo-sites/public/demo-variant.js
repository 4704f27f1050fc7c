// What the EMR and the request form share to apply a site variant (src/variants.ts; the
// server names it on the page's root element). Imported only when a variant is on.

/**
 * Asks "Are you sure?" in a div overlay (like the modal demo: the page behind stays in the
 * tree) and resolves true on Confirm, false on Cancel or Escape. Role `dialog` as the modal
 * demo's: page capture reads an `alertdialog` as an alert, that is as an error on the page.
 */
export function confirmFirst(question) {
  const overlay = document.createElement('div');
  overlay.id = 'confirm-overlay';
  Object.assign(overlay.style, {
    position: 'fixed',
    inset: '0',
    zIndex: '1000',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    background: 'rgb(16 24 40 / 55%)',
  });
  const dialog = document.createElement('div');
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-labelledby', 'confirm-title');
  dialog.setAttribute('aria-describedby', 'confirm-question');
  dialog.tabIndex = -1;
  Object.assign(dialog.style, {
    background: '#fff',
    borderRadius: '10px',
    padding: '20px 24px',
    width: 'min(420px, calc(100vw - 32px))',
  });
  const title = document.createElement('h2');
  title.id = 'confirm-title';
  title.textContent = 'Are you sure?';
  const text = document.createElement('p');
  text.id = 'confirm-question';
  text.textContent = question;
  const confirm = document.createElement('button');
  confirm.type = 'button';
  confirm.className = 'primary';
  confirm.textContent = 'Confirm';
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.textContent = 'Cancel';
  dialog.append(title, text, confirm, ' ', cancel);
  overlay.append(dialog);
  document.body.append(overlay);
  dialog.focus();
  return new Promise((resolve) => {
    const close = (answer) => {
      overlay.remove();
      resolve(answer);
    };
    confirm.addEventListener('click', () => close(true));
    cancel.addEventListener('click', () => close(false));
    dialog.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') close(false);
    });
  });
}

/** A labelled optional text field in the sites' `.field` markup. */
export function optionalField({ id, name, label }) {
  const field = document.createElement('div');
  field.className = 'field';
  const labelElement = document.createElement('label');
  labelElement.htmlFor = id;
  labelElement.textContent = `${label} (optional)`;
  const input = document.createElement('input');
  input.type = 'text';
  input.id = id;
  input.name = name;
  field.append(labelElement, input);
  return field;
}
