// The site variants (src/variants.ts) on the "Add new patient" form: each changes one thing of
// the form as the template renders it. Loaded by emr.js only when a variant is on.
import { confirmFirst, optionalField } from '/demo-variant.js';

/** Changes the freshly rendered New/Search view; returns the confirm step to ask, if any. */
export function applyFormVariant(root, variant) {
  const form = root.querySelector('#add-patient-form');
  if (!form) return null;
  switch (variant) {
    case 'rename-submit':
      form.querySelector('#save-patient').textContent = 'Save patient';
      return null;
    case 'extra-field':
      // Not one of the saved fields: an optional extra the routine never filled.
      form
        .querySelector('#last-name')
        .closest('.field')
        .after(optionalField({ id: 'middle-name', name: 'middleName', label: 'Middle name' }));
      return null;
    case 'move-submit':
      form.prepend(form.querySelector('.actions'));
      return null;
    case 'confirm-dialog':
      return () => confirmFirst('Save this patient record?');
    default:
      return null;
  }
}
