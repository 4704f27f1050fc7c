// setValue: replace the value of an input, textarea, select or contenteditable region.
import { TEXT_INPUT_TYPES } from '../capture/roles';
import { collapse } from '../dom/text';
import { describeElement } from '../dom/elements';
import { dispatchChange, dispatchInput, setNativeProperty } from './native';
import { fail } from './result';
import { selectNativeOption } from './select';

const TRUE_WORDS = new Set(['true', 'on', 'yes', 'checked', '1', 'check']);
const FALSE_WORDS = new Set(['false', 'off', 'no', 'unchecked', '0', 'uncheck', '']);

const FORMAT_HINTS: Record<string, string> = {
  date: 'YYYY-MM-DD',
  time: 'HH:MM',
  'datetime-local': 'YYYY-MM-DDTHH:MM',
  month: 'YYYY-MM',
  week: 'YYYY-Www',
  number: 'a number',
  color: '#rrggbb',
};

function focus(el: Element): void {
  (el as HTMLElement).focus({ preventScroll: true });
}

function setTextField(
  el: HTMLInputElement | HTMLTextAreaElement,
  text: string,
): string | undefined {
  if (el.readOnly) fail('disabled', `field is read-only: ${describeElement(el)}`);
  const before = el.value;
  focus(el);
  setNativeProperty(el, 'value', text);
  dispatchInput(el, text);
  dispatchChange(el);
  const after = el.value;
  if (after === text) return undefined;
  const type = (el.getAttribute('type') ?? '').toLowerCase();
  const secret = type === 'password';
  if (after === '' && text !== '' && FORMAT_HINTS[type]) {
    fail(
      'failed',
      `a ${type} field expects ${FORMAT_HINTS[type]}; the page rejected ${JSON.stringify(text)}`,
    );
  }
  if (after === before && before !== text) {
    fail('failed', 'the page reset the value (it did not accept the edit)');
  }
  // Masks and maxlength reformat what was typed; the field accepted an edit.
  return secret ? 'the field reformatted the value' : `the field shows ${JSON.stringify(after)}`;
}

function setToggle(el: HTMLInputElement, text: string, click: () => void): string | undefined {
  const wanted = text.trim().toLowerCase();
  let checked: boolean;
  if (TRUE_WORDS.has(wanted)) checked = true;
  else if (FALSE_WORDS.has(wanted)) checked = false;
  else
    return fail(
      'invalid_action',
      `a checkbox or radio takes "true" or "false", got ${JSON.stringify(text)}`,
    );
  if (el.checked !== checked) click();
  if (el.checked !== checked)
    fail('failed', `the page kept the ${el.type} ${el.checked ? 'checked' : 'unchecked'}`);
  return undefined;
}

function setContentEditable(el: HTMLElement, text: string): string | undefined {
  const doc = el.ownerDocument;
  const win = doc.defaultView ?? window;
  focus(el);
  const range = doc.createRange();
  range.selectNodeContents(el);
  const selection = win.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  // execCommand goes through the editor's own beforeinput/input handling (ProseMirror,
  // Draft.js, Lexical listen to it); writing textContent would bypass their model.
  const applied =
    text === '' ? doc.execCommand('delete') : doc.execCommand('insertText', false, text);
  if (!applied || collapse(el.textContent ?? '') !== collapse(text)) {
    el.textContent = text;
    dispatchInput(el, text);
  }
  if (collapse(el.textContent ?? '') !== collapse(text))
    fail('failed', 'the editor did not accept the text');
  return undefined;
}

/**
 * Sets the value and returns a note when the page shows something other than `text`
 * (formatting masks); throws an ActionFailure when the element cannot take a value.
 */
export function setValue(
  el: Element,
  role: string,
  text: string,
  click: () => void,
): string | undefined {
  const tag = el.tagName;
  if (tag === 'INPUT') {
    const input = el as HTMLInputElement;
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    if (type === 'checkbox' || type === 'radio') return setToggle(input, text, click);
    if (type === 'file') return fail('unsupported', 'file inputs cannot be filled from the page');
    if (!TEXT_INPUT_TYPES.has(type) && type !== 'range') {
      return fail('invalid_action', `an input of type ${type} takes no typed value`);
    }
    return setTextField(input, text);
  }
  if (tag === 'TEXTAREA') return setTextField(el as HTMLTextAreaElement, text);
  if (tag === 'SELECT') return selectNativeOption(el as HTMLSelectElement, text);
  if ((el as HTMLElement).isContentEditable) return setContentEditable(el as HTMLElement, text);
  return fail('invalid_action', `element is not editable (${role}): ${describeElement(el)}`);
}
