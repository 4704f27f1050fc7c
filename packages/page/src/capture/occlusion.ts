// Occlusion by hit-testing: whatever the browser would deliver a click to at the element's
// visible centre must be the element itself, something inside it, an ancestor (the element
// lets clicks through with pointer-events:none), or its <label>. Anything else covers it:
// a modal, a backdrop, a cookie banner.
import { composedContains } from '../dom/elements';
import type { FrameContext } from '../dom/frames';

/** The deepest element at a point of `doc`, descending into open shadow roots. */
export function deepElementFromPoint(doc: Document, x: number, y: number): Element | null {
  let hit = doc.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

function labelFor(hit: Element, el: Element): boolean {
  const label = hit.closest('label');
  if (!label) return false;
  return (label as HTMLLabelElement).control === el;
}

/** True when `hit` stands for `el` as a click target. */
export function hitMatches(el: Element, hit: Element): boolean {
  return composedContains(el, hit) || composedContains(hit, el) || labelFor(hit, el);
}

/**
 * The element covering `el` at top-viewport point (x, y), or null when el is the target.
 * For elements inside iframes it also checks that the iframe itself is not covered.
 */
export function occluderAt(el: Element, frame: FrameContext, x: number, y: number): Element | null {
  const hit = deepElementFromPoint(frame.doc, x - frame.offsetX, y - frame.offsetY);
  if (hit && !hitMatches(el, hit)) return hit;
  if (frame.parent && frame.iframe) return occluderAt(frame.iframe, frame.parent, x, y);
  return null;
}
