// press(): key events on the focused element, plus the default actions browsers only perform
// for trusted events (synthetic key events insert no text, submit no form, move no focus).
import { deepActiveElement } from '../dom/elements';
import type { KeyChord } from './keys';
import { parseKeyChord } from './keys';
import { fail } from './result';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"]), [contenteditable]:not([contenteditable="false"])';

function keyEvent(target: Element, type: string, chord: KeyChord): KeyboardEvent {
  const win = target.ownerDocument.defaultView ?? window;
  return new win.KeyboardEvent(type, {
    key: chord.key,
    code: chord.code,
    keyCode: chord.keyCode,
    which: chord.keyCode,
    charCode: type === 'keypress' ? chord.key.charCodeAt(0) : 0,
    ctrlKey: chord.ctrlKey,
    shiftKey: chord.shiftKey,
    altKey: chord.altKey,
    metaKey: chord.metaKey,
    bubbles: true,
    cancelable: true,
    composed: true,
    view: win,
  } as KeyboardEventInit);
}

const isTextEntry = (el: Element): boolean =>
  el.tagName === 'TEXTAREA' ||
  (el as HTMLElement).isContentEditable ||
  (el.tagName === 'INPUT' &&
    !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color'].includes(
      (el.getAttribute('type') ?? '').toLowerCase(),
    ));

function moveFocus(from: Element, backwards: boolean): void {
  const doc = from.ownerDocument;
  const all = Array.from(doc.querySelectorAll(FOCUSABLE)).filter((el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  });
  const index = all.indexOf(from);
  const next = all[(index + (backwards ? -1 : 1) + all.length) % all.length];
  (next as HTMLElement | undefined)?.focus();
}

function defaultAction(target: Element, chord: KeyChord): void {
  const doc = target.ownerDocument;
  const tag = target.tagName;
  const modified = chord.ctrlKey || chord.metaKey || chord.altKey;
  if (chord.key === 'Tab' && !modified) return moveFocus(target, chord.shiftKey);
  if (chord.key === 'Enter' && !modified) {
    if (tag === 'INPUT' && isTextEntry(target)) {
      const form = (target as HTMLInputElement).form;
      if (form) form.requestSubmit();
      return;
    }
    if (tag === 'TEXTAREA' || (target as HTMLElement).isContentEditable) {
      doc.execCommand('insertLineBreak');
      return;
    }
    if (
      tag === 'A' ||
      tag === 'BUTTON' ||
      tag === 'SUMMARY' ||
      target.getAttribute('role') === 'button'
    ) {
      (target as HTMLElement).click();
    }
    return;
  }
  if (chord.key === ' ' && !modified && !isTextEntry(target)) {
    if (
      tag === 'BUTTON' ||
      tag === 'INPUT' ||
      tag === 'SUMMARY' ||
      target.getAttribute('role') === 'button' ||
      target.getAttribute('role') === 'checkbox'
    ) {
      (target as HTMLElement).click();
    }
    return;
  }
  if (!isTextEntry(target)) return;
  if (chord.printable) doc.execCommand('insertText', false, chord.key);
  else if (chord.key === 'Backspace' && !modified) doc.execCommand('delete');
  else if (chord.key === 'Delete' && !modified) doc.execCommand('forwardDelete');
  else if ((chord.ctrlKey || chord.metaKey) && chord.key.toLowerCase() === 'a') {
    if (tag === 'INPUT' || tag === 'TEXTAREA') (target as HTMLInputElement).select();
    else doc.execCommand('selectAll');
  }
}

/** Presses a key (or chord) in the focused element, or the body when nothing is focused. */
export function pressKey(top: Document, text: string): void {
  let chord: KeyChord;
  try {
    chord = parseKeyChord(text);
  } catch (error) {
    return fail('invalid_action', (error as Error).message);
  }
  const target = deepActiveElement(top) ?? top.body;
  if (!target) return fail('failed', 'the page has no body to receive keys');
  const proceed = target.dispatchEvent(keyEvent(target, 'keydown', chord));
  if (proceed && chord.printable) target.dispatchEvent(keyEvent(target, 'keypress', chord));
  if (proceed && chord.key === 'Enter') target.dispatchEvent(keyEvent(target, 'keypress', chord));
  if (proceed) defaultAction(target, chord);
  target.dispatchEvent(keyEvent(target, 'keyup', chord));
}
