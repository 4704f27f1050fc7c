// Framework-controlled fields. React (and others) shadow `value` on the element instance to
// track what they rendered; a plain `el.value = x` updates that tracker too, so the framework
// sees no change and re-renders the old value. Calling the prototype's setter bypasses the
// instance property, exactly like typing does, and the following input event is then seen as
// a real edit.

function prototypeSetter(
  el: Element,
  property: string,
): ((this: Element, value: unknown) => void) | undefined {
  for (
    let proto = Object.getPrototypeOf(el) as object | null;
    proto;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, property);
    if (descriptor?.set) return descriptor.set as (this: Element, value: unknown) => void;
  }
  return undefined;
}

export function setNativeProperty(el: Element, property: string, value: unknown): void {
  const setter = prototypeSetter(el, property);
  if (setter) setter.call(el, value);
  else (el as unknown as Record<string, unknown>)[property] = value;
}

export function dispatchInput(el: Element, data: string | null, inputType = 'insertText'): void {
  const win = el.ownerDocument.defaultView ?? window;
  const init: InputEventInit = { bubbles: true, composed: true, inputType, data };
  el.dispatchEvent(
    typeof win.InputEvent === 'function'
      ? new win.InputEvent('input', init)
      : new win.Event('input', init),
  );
}

export function dispatchChange(el: Element): void {
  const win = el.ownerDocument.defaultView ?? window;
  el.dispatchEvent(new win.Event('change', { bubbles: true }));
}
