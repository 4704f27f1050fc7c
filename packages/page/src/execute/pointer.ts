// Pointer actions. Before any pointer or value action the target is brought into view and
// checked: enabled, rendered, and not covered (the same hit test as the capture's `occ`).
// Events carry real coordinates, in the element's own document, because some handlers read them.
import { targetRect } from '../capture/geometry-read';
import { occluderAt } from '../capture/occlusion';
import { isDisabled } from '../capture/states';
import { describeElement } from '../dom/elements';
import { center, intersection } from '../dom/geometry';
import type { Rect } from '../dom/geometry';
import { worldGlobal } from '../dom/global-state';
import { frameContextOf } from './frame-of';
import { fail } from './result';

export interface Point {
  /** Top-viewport coordinates. */
  x: number;
  y: number;
  /** Coordinates in the element's own document (what clientX/clientY mean there). */
  localX: number;
  localY: number;
}

function viewportRectOf(doc: Document): Rect {
  const root = doc.documentElement;
  const win = doc.defaultView;
  return {
    x: 0,
    y: 0,
    w: root.clientWidth || win?.innerWidth || 0,
    h: root.clientHeight || win?.innerHeight || 0,
  };
}

function visibleCenter(
  el: Element,
  role: string,
  root: Document,
): { point: Point; inView: boolean } | null {
  const frame = frameContextOf(el.ownerDocument, root);
  const rect = targetRect(el, role, frame);
  if (rect.w <= 0 || rect.h <= 0) return null;
  let visible = intersection(rect, viewportRectOf(root));
  if (visible && frame.clip) visible = intersection(visible, frame.clip);
  const [x, y] = center(visible ?? rect);
  const fullyInView = visible !== null && visible.w >= rect.w - 1 && visible.h >= rect.h - 1;
  return {
    point: { x, y, localX: x - frame.offsetX, localY: y - frame.offsetY },
    inView: fullyInView,
  };
}

/**
 * Scrolls `el` into view if needed and checks it can be acted on. Returns the point to act at.
 * `occlusion: false` skips the hit test (scrolling to an element never needs it).
 */
export function prepareTarget(el: Element, role: string, root: Document, occlusion = true): Point {
  if (isDisabled(el, el.tagName)) fail('disabled', `element is disabled: ${describeElement(el)}`);
  let target = visibleCenter(el, role, root);
  if (!target) return fail('failed', `element is not visible (zero size): ${describeElement(el)}`);
  if (!target.inView) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    target = visibleCenter(el, role, root) ?? target;
  }
  if (occlusion) {
    const frame = frameContextOf(el.ownerDocument, root);
    const occluder = occluderAt(el, frame, target.point.x, target.point.y);
    if (occluder) fail('occluded', `element occluded by ${describeElement(occluder)}`);
  }
  return target.point;
}

function mouseInit(el: Element, point: Point, buttons: number): MouseEventInit {
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: el.ownerDocument.defaultView,
    clientX: point.localX,
    clientY: point.localY,
    screenX: point.x,
    screenY: point.y,
    button: 0,
    buttons,
  };
}

function pointerEvent(
  el: Element,
  type: string,
  point: Point,
  buttons: number,
  bubbles = true,
): Event {
  const win = el.ownerDocument.defaultView ?? window;
  const init: PointerEventInit = {
    ...mouseInit(el, point, buttons),
    bubbles,
    pointerId: 1,
    pointerType: 'mouse',
    isPrimary: true,
  };
  return typeof win.PointerEvent === 'function'
    ? new win.PointerEvent(type, init)
    : new win.MouseEvent(type, init);
}

function mouseEvent(
  el: Element,
  type: string,
  point: Point,
  buttons: number,
  bubbles = true,
): MouseEvent {
  const win = el.ownerDocument.defaultView ?? window;
  return new win.MouseEvent(type, {
    ...mouseInit(el, point, buttons),
    bubbles,
    detail: type.includes('click') ? 1 : 0,
  });
}

interface HoverState {
  current: WeakRef<Element> | undefined;
}

/** Moves the (virtual) pointer onto `el`, leaving the previously hovered element first. */
export function hoverElement(el: Element, point: Point): void {
  const state = worldGlobal<HoverState>(el.ownerDocument.defaultView ?? window, 'hover', () => ({
    current: undefined,
  }));
  const previous = state.current?.deref();
  if (previous && previous !== el && previous.isConnected) {
    previous.dispatchEvent(pointerEvent(previous, 'pointerout', point, 0));
    previous.dispatchEvent(pointerEvent(previous, 'pointerleave', point, 0, false));
    previous.dispatchEvent(mouseEvent(previous, 'mouseout', point, 0));
    previous.dispatchEvent(mouseEvent(previous, 'mouseleave', point, 0, false));
  }
  if (previous !== el) {
    el.dispatchEvent(pointerEvent(el, 'pointerover', point, 0));
    el.dispatchEvent(pointerEvent(el, 'pointerenter', point, 0, false));
    el.dispatchEvent(mouseEvent(el, 'mouseover', point, 0));
    el.dispatchEvent(mouseEvent(el, 'mouseenter', point, 0, false));
  }
  el.dispatchEvent(pointerEvent(el, 'pointermove', point, 0));
  el.dispatchEvent(mouseEvent(el, 'mousemove', point, 0));
  state.current = new WeakRef(el);
}

function focusTarget(el: Element): void {
  const focusable = el.closest(
    'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable]:not([contenteditable="false"])',
  ) as HTMLElement | null;
  focusable?.focus({ preventScroll: true });
}

/**
 * The event sequence of a real click: hover, pointerdown/mousedown, focus, pointerup/mouseup,
 * click. The click is dispatched as a MouseEvent, which runs the element's activation
 * behaviour (links navigate, checkboxes toggle, submit buttons submit) like element.click().
 */
export function clickElement(el: Element, point: Point): void {
  hoverElement(el, point);
  const down = el.dispatchEvent(pointerEvent(el, 'pointerdown', point, 1));
  // A cancelled pointerdown suppresses the compatibility mouse events, as in browsers.
  const mouseDown = down ? el.dispatchEvent(mouseEvent(el, 'mousedown', point, 1)) : true;
  if (mouseDown) focusTarget(el);
  el.dispatchEvent(pointerEvent(el, 'pointerup', point, 0));
  if (down) el.dispatchEvent(mouseEvent(el, 'mouseup', point, 0));
  el.dispatchEvent(mouseEvent(el, 'click', point, 0));
}
