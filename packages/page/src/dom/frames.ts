// Same-origin iframes are walked as part of the top document. A FrameContext says how to map
// the frame's own viewport coordinates to the top viewport and which part of it is visible.
import type { Rect } from './geometry';
import { intersection } from './geometry';

export interface FrameContext {
  /** 0 for the top document; iframes get numbers that stay fixed for the element's lifetime. */
  readonly number: number;
  readonly doc: Document;
  readonly win: Window;
  /** Add to this document's client coordinates to get top-viewport coordinates. */
  readonly offsetX: number;
  readonly offsetY: number;
  /** The frame's visible content box in top coordinates; null for the top document. */
  readonly clip: Rect | null;
  readonly iframe: Element | null;
  readonly parent: FrameContext | null;
}

export function topFrame(doc: Document): FrameContext {
  const win = doc.defaultView;
  if (!win) throw new Error('document has no window (detached or not rendered)');
  return { number: 0, doc, win, offsetX: 0, offsetY: 0, clip: null, iframe: null, parent: null };
}

/** Context for an iframe's document. Reads layout (one rect and one style per iframe). */
export function childFrame(
  parent: FrameContext,
  iframe: Element,
  doc: Document,
  number: number,
  withLayout: boolean,
): FrameContext | null {
  const win = doc.defaultView;
  if (!win) return null;
  if (!withLayout) {
    return { number, doc, win, offsetX: 0, offsetY: 0, clip: null, iframe, parent };
  }
  const box = iframe.getBoundingClientRect();
  const style = parent.win.getComputedStyle(iframe);
  const left =
    box.left + iframe.clientLeft + (Number.parseFloat(style.paddingLeft) || 0) + parent.offsetX;
  const top =
    box.top + iframe.clientTop + (Number.parseFloat(style.paddingTop) || 0) + parent.offsetY;
  const content: Rect = { x: left, y: top, w: iframe.clientWidth, h: iframe.clientHeight };
  const clip = parent.clip ? intersection(parent.clip, content) : content;
  return {
    number,
    doc,
    win,
    offsetX: left,
    offsetY: top,
    clip: clip ?? { x: left, y: top, w: 0, h: 0 },
    iframe,
    parent,
  };
}
