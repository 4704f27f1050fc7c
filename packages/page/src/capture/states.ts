// Values (`v`) and states (`s`) of interactive elements.
import { MASKED_VALUE } from '@tandem/contracts';
import { cap, collapse } from '../dom/text';
import { subtreeText } from './names';

export { MASKED_VALUE };

function selectValue(el: HTMLSelectElement): string {
  const chosen: string[] = [];
  for (const option of Array.from(el.selectedOptions)) {
    chosen.push(collapse(option.label || option.text));
  }
  return chosen.join(', ');
}

/** The current value, or undefined when the role has none. Passwords are always masked. */
export function valueOf(
  el: Element,
  tag: string,
  role: string,
  maxLength: number,
): string | undefined {
  if (tag === 'INPUT') {
    const input = el as HTMLInputElement;
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    if (type === 'password') return input.value ? MASKED_VALUE : '';
    if (role === 'chk' || role === 'radio' || role === 'btn') return undefined;
    if (type === 'file') {
      const names = Array.from(input.files ?? []).map((file) => file.name);
      return cap(names.join(', '), maxLength);
    }
    return cap(input.value, maxLength);
  }
  if (tag === 'TEXTAREA') return cap((el as HTMLTextAreaElement).value, maxLength);
  if (tag === 'SELECT') return cap(selectValue(el as HTMLSelectElement), maxLength);
  switch (role) {
    case 'edit':
    case 'inp':
    case 'txt':
      return cap(subtreeText(el, maxLength * 3), maxLength);
    case 'sld':
      return el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow') ?? undefined;
    case 'combo': {
      // A non-native combobox shows its current choice as content; its name is its label.
      const text = el.getAttribute('aria-valuetext') ?? subtreeText(el, maxLength * 3);
      return cap(text, maxLength);
    }
    default:
      return undefined;
  }
}

const FORM_CONTROL_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'FIELDSET', 'OPTION']);

export function isDisabled(el: Element, tag: string): boolean {
  if (el.getAttribute('aria-disabled') === 'true') return true;
  // :disabled also covers controls inside a disabled <fieldset>.
  return FORM_CONTROL_TAGS.has(tag) && el.matches(':disabled');
}

function isUserInvalid(el: Element): boolean {
  try {
    return el.matches(':user-invalid');
  } catch {
    return false;
  }
}

/**
 * States, comma-joined in a fixed order: disabled, checked, selected, expanded/collapsed,
 * required, readonly, invalid, focused. `invalid` uses :user-invalid, so an empty required
 * field is not reported as invalid before the user touched it.
 */
export function statesOf(
  el: Element,
  tag: string,
  role: string,
  focused: boolean,
): string | undefined {
  const states: string[] = [];
  if (isDisabled(el, tag)) states.push('disabled');

  const ariaChecked = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
  if (tag === 'INPUT' && (role === 'chk' || role === 'radio')) {
    const input = el as HTMLInputElement;
    if (input.indeterminate) states.push('mixed');
    else if (input.checked) states.push('checked');
  } else if (ariaChecked === 'true') states.push('checked');
  else if (ariaChecked === 'mixed') states.push('mixed');

  if (el.getAttribute('aria-selected') === 'true') states.push('selected');

  const expanded = el.getAttribute('aria-expanded');
  if (tag === 'SUMMARY') {
    const details = el.parentElement;
    if (details?.tagName === 'DETAILS') {
      states.push(details.hasAttribute('open') ? 'expanded' : 'collapsed');
    }
  } else if (expanded === 'true') states.push('expanded');
  else if (expanded === 'false') states.push('collapsed');

  if (el.hasAttribute('required') || el.getAttribute('aria-required') === 'true') {
    states.push('required');
  }
  if (
    ((tag === 'INPUT' || tag === 'TEXTAREA') && el.hasAttribute('readonly')) ||
    el.getAttribute('aria-readonly') === 'true'
  ) {
    states.push('readonly');
  }
  const ariaInvalid = el.getAttribute('aria-invalid');
  if (
    (ariaInvalid !== null && ariaInvalid !== 'false') ||
    (FORM_CONTROL_TAGS.has(tag) && isUserInvalid(el))
  ) {
    states.push('invalid');
  }
  if (focused) states.push('focused');
  return states.length > 0 ? states.join(',') : undefined;
}
