// Realm-safe element helpers. Same-origin iframes have their own HTMLElement constructors, so
// `instanceof` lies for their elements; everything here tests tag names and node types.
import { cap } from './text';

export const LLM_ID_ATTRIBUTE = 'data-llm-id';

export const isElement = (node: Node | null | undefined): node is Element =>
  node != null && node.nodeType === 1;

/** The iframe's document when it is same-origin and loaded, else null (cross-origin throws). */
export function frameDocument(frame: Element): Document | null {
  try {
    const doc = (frame as HTMLIFrameElement).contentDocument;
    return doc?.documentElement ? doc : null;
  } catch {
    return null;
  }
}

/** Parent across shadow boundaries: a shadow root's parent is its host. */
export function composedParent(node: Node): Element | null {
  if (node.parentElement) return node.parentElement;
  const parent = node.parentNode;
  if (parent && parent.nodeType === 11) {
    const host = (parent as ShadowRoot).host as Element | undefined;
    return host ?? null;
  }
  return null;
}

/** True when `inner` is `outer` or lies inside it, shadow trees included. */
export function composedContains(outer: Element, inner: Element): boolean {
  for (let node: Element | null = inner; node; node = composedParent(node)) {
    if (node === outer) return true;
  }
  return false;
}

/** The focused element, looking through shadow roots and same-origin iframes. */
export function deepActiveElement(doc: Document): Element | null {
  let active: Element | null = doc.activeElement;
  while (active) {
    const shadowActive = active.shadowRoot?.activeElement;
    if (shadowActive) {
      active = shadowActive;
      continue;
    }
    if (active.tagName === 'IFRAME' || active.tagName === 'FRAME') {
      const inner = frameDocument(active);
      const innerActive = inner?.activeElement;
      if (inner && innerActive && innerActive !== inner.body) {
        active = innerActive;
        continue;
      }
    }
    break;
  }
  return active;
}

/** A short, human description of an element for error messages: `div.modal-backdrop "Confirm"`. */
export function describeElement(el: Element): string {
  const tag = el.tagName.toLowerCase();
  const id = el.id ? `#${el.id}` : '';
  const firstClass = (el.getAttribute('class') ?? '').trim().split(/\s+/)[0];
  const cls = firstClass ? `.${firstClass}` : '';
  const role = el.getAttribute('role');
  const text = cap(el.getAttribute('aria-label') ?? el.textContent ?? '', 40);
  return `${tag}${id}${cls}${role ? `[role=${role}]` : ''}${text ? ` "${text}"` : ''}`;
}

export function isValidLlmId(value: string | null): value is string {
  return value !== null && /^[A-Za-z0-9_:.-]{1,64}$/.test(value);
}
