// Layout reads for candidates: their boxes in top-viewport coordinates and visibility.
import type { FrameContext } from '../dom/frames';
import type { Rect } from '../dom/geometry';

export function topRect(el: Element, frame: FrameContext): Rect {
  const box = el.getBoundingClientRect();
  return { x: box.left + frame.offsetX, y: box.top + frame.offsetY, w: box.width, h: box.height };
}

/** Below this size a checkbox or radio is a visually hidden native input styled via its label. */
const TINY = 4;

/**
 * The box a user would click for `el`: its own, or its label's when a checkbox/radio is
 * visually hidden behind a custom-styled label (a very common pattern).
 */
export function targetRect(el: Element, role: string, frame: FrameContext): Rect {
  const own = topRect(el, frame);
  if (
    (role === 'chk' || role === 'radio') &&
    el.tagName === 'INPUT' &&
    (own.w < TINY || own.h < TINY)
  ) {
    const label = (el as HTMLInputElement).labels?.[0];
    if (label) {
      const proxy = topRect(label, frame);
      if (proxy.w > 0 && proxy.h > 0) return proxy;
    }
  }
  return own;
}

/** visibility:hidden and content-visibility are only visible through style; ask the engine. */
export function isRendered(el: Element): boolean {
  const check = (el as Element & { checkVisibility?: (o?: object) => boolean }).checkVisibility;
  if (typeof check !== 'function') return true;
  return check.call(el, { visibilityProperty: true, contentVisibilityAuto: true });
}
