// clickAt(x, y): a click at a point of the viewport, for what only a screenshot shows (a
// button drawn on a canvas, an icon with no name). There is no captured element to check the
// point against, so the checks are about the point itself and whatever the browser would
// deliver a real click to there: it must be inside the viewport, on an element (not the bare
// page), visible, enabled, and not an overlay (a backdrop, an invisible click-catcher, the
// page behind a modal dialog). Any doubt fails with a code, as for click(id).
import { isDisabled } from '../capture/states';
import { deepElementFromPoint } from '../capture/occlusion';
import { composedContains, describeElement } from '../dom/elements';
import { clickElement, type Point } from './pointer';
import { fail } from './result';

/** Below this effective opacity an element is an invisible click-catcher, not a target. */
const INVISIBLE_OPACITY = 0.05;
/** An overlay spans at least this share of both viewport dimensions. */
const OVERLAY_COVERAGE = 0.9;
/** Elements that may legitimately fill the viewport and take clicks themselves. */
const MEDIA_TAGS = new Set(['CANVAS', 'VIDEO', 'IMG', 'svg', 'SVG', 'IFRAME', 'EMBED', 'OBJECT']);
const ACTIONABLE =
  'button, input, select, textarea, option, a[href], [role="button"], [role="link"], [aria-disabled]';

const at = (x: number, y: number) => `(${Math.round(x)}, ${Math.round(y)})`;

function viewportOf(doc: Document): { w: number; h: number } {
  const root = doc.documentElement;
  const win = doc.defaultView;
  return {
    w: root.clientWidth || win?.innerWidth || 0,
    h: root.clientHeight || win?.innerHeight || 0,
  };
}

/** The element a real click at (x, y) of `doc`'s viewport lands on, through same-origin iframes. */
function hitAt(doc: Document, x: number, y: number): { el: Element; point: Point } {
  let hit = deepElementFromPoint(doc, x, y);
  let local = { x, y };
  // A same-origin iframe: the click goes to the element at the same point of its document.
  while (hit?.tagName === 'IFRAME') {
    const frame = hit as HTMLIFrameElement;
    let inner: Document | null = null;
    try {
      inner = frame.contentDocument;
    } catch {
      inner = null;
    }
    if (!inner) return fail('unsupported', `${at(x, y)} is inside a cross-origin frame`);
    const rect = frame.getBoundingClientRect();
    local = { x: local.x - rect.left - frame.clientLeft, y: local.y - rect.top - frame.clientTop };
    hit = deepElementFromPoint(inner, local.x, local.y);
  }
  if (!hit) return fail('not_found', `nothing at ${at(x, y)}`);
  if (hit === hit.ownerDocument.documentElement || hit === hit.ownerDocument.body) {
    return fail('not_found', `only the page background is at ${at(x, y)}`);
  }
  return { el: hit, point: { x, y, localX: local.x, localY: local.y } };
}

function effectiveOpacity(el: Element): number {
  let opacity = 1;
  for (let node: Element | null = el; node; node = node.parentElement) {
    const view = node.ownerDocument.defaultView;
    const value = view ? Number.parseFloat(view.getComputedStyle(node).opacity) : 1;
    if (Number.isFinite(value)) opacity *= value;
  }
  return opacity;
}

/** A fixed or absolute box over (nearly) the whole viewport that is not media: a backdrop. */
function isOverlay(el: Element): boolean {
  if (MEDIA_TAGS.has(el.tagName)) return false;
  const view = el.ownerDocument.defaultView;
  if (!view) return false;
  const position = view.getComputedStyle(el).position;
  if (position !== 'fixed' && position !== 'absolute') return false;
  const rect = el.getBoundingClientRect();
  const viewport = viewportOf(el.ownerDocument);
  return (
    rect.width >= viewport.w * OVERLAY_COVERAGE && rect.height >= viewport.h * OVERLAY_COVERAGE
  );
}

function isModalDialog(el: Element): boolean {
  try {
    return el.tagName === 'DIALOG' && el.matches(':modal');
  } catch {
    // Engines without :modal (older ones, jsdom): only aria-modal counts there.
    return false;
  }
}

/** An open modal dialog (aria-modal, or a <dialog> shown with showModal()) of `doc`. */
function openModal(doc: Document): Element | null {
  for (const dialog of doc.querySelectorAll('[aria-modal="true"], dialog[open]')) {
    const modal = dialog.getAttribute('aria-modal') === 'true' || isModalDialog(dialog);
    const rect = dialog.getBoundingClientRect();
    if (modal && rect.width > 0 && rect.height > 0) return dialog;
  }
  return null;
}

/** Throws an ActionFailure when the element at the point must not be clicked. */
function checkTarget(el: Element, x: number, y: number): void {
  if (effectiveOpacity(el) < INVISIBLE_OPACITY)
    fail('occluded', `an invisible element (${describeElement(el)}) covers ${at(x, y)}`);
  if (isOverlay(el)) fail('occluded', `an overlay (${describeElement(el)}) covers ${at(x, y)}`);
  const modal = openModal(el.ownerDocument);
  if (modal && !composedContains(modal, el)) {
    fail(
      'occluded',
      `a modal dialog (${describeElement(modal)}) is open and ${at(x, y)} is outside it`,
    );
  }
  const control = el.closest(ACTIONABLE) ?? el;
  if (isDisabled(control, control.tagName))
    fail('disabled', `the element at ${at(x, y)} is disabled: ${describeElement(control)}`);
}

/**
 * Clicks the element at viewport point (x, y) of `doc`; returns what was clicked. `check` may
 * refuse the element found there (it throws), as for a click by id.
 */
export function clickAt(
  doc: Document,
  x: number,
  y: number,
  check?: (el: Element) => void,
): string {
  const viewport = viewportOf(doc);
  if (!(x >= 0 && y >= 0 && x < viewport.w && y < viewport.h)) {
    fail('invalid_action', `${at(x, y)} is outside the viewport (${viewport.w}×${viewport.h})`);
  }
  const { el, point } = hitAt(doc, x, y);
  checkTarget(el, x, y);
  check?.(el);
  clickElement(el, point);
  return `clicked ${describeElement(el)} at ${at(x, y)}`;
}
