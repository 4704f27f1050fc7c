// Clipping and scrolling boxes, found lazily: only the ancestors of elements that survived
// viewport pruning are examined (with a per-capture cache), so a page with thousands of
// offscreen boxes pays for none of them.
import { composedParent } from '../dom/elements';
import type { FrameContext } from '../dom/frames';
import type { Rect } from '../dom/geometry';
import { intersection } from '../dom/geometry';

export interface Clip {
  /** The visible part of the clipping box, in top-viewport coordinates. */
  rect: Rect;
  /** True when the nearest clipping box scrolls (content reachable by scrolling). */
  scrollable: boolean;
}

export interface ScrollContainerHit {
  el: Element;
  frame: FrameContext;
  rect: Rect;
}

/** Boxes that may scroll or clip. BODY is left out: its overflow propagates to the viewport. */
const CONTAINER_TAGS = new Set([
  'DIV',
  'SECTION',
  'MAIN',
  'ASIDE',
  'NAV',
  'UL',
  'OL',
  'DL',
  'TABLE',
  'TBODY',
  'FORM',
  'ARTICLE',
  'DIALOG',
  'FIELDSET',
  'HEADER',
  'FOOTER',
]);

const CLIPPING_OVERFLOW = new Set(['hidden', 'clip', 'auto', 'scroll', 'overlay']);
const SCROLLING_OVERFLOW = new Set(['auto', 'scroll', 'overlay']);

export class ClipFinder {
  private readonly cache = new Map<Element, Clip | null>();
  readonly containers: ScrollContainerHit[] = [];

  /** The clip applying to `el`'s own box: its ancestors' (not its own). */
  clipOf(el: Element, frame: FrameContext): Clip | null {
    const parent = composedParent(el);
    return parent ? this.clipInside(parent, frame) : null;
  }

  /** The clip applying to the descendants of `el`. */
  private clipInside(el: Element, frame: FrameContext): Clip | null {
    const cached = this.cache.get(el);
    if (cached !== undefined) return cached;
    const parent = composedParent(el);
    const outer =
      parent && el !== frame.doc.documentElement ? this.clipInside(parent, frame) : null;
    const own = this.ownClip(el, frame);
    let clip = outer;
    if (own) {
      const visible = outer ? intersection(outer.rect, own.rect) : own.rect;
      clip = {
        rect: visible ?? { x: own.rect.x, y: own.rect.y, w: 0, h: 0 },
        scrollable: own.scrollable,
      };
    }
    this.cache.set(el, clip);
    return clip;
  }

  private ownClip(el: Element, frame: FrameContext): Clip | null {
    if (!CONTAINER_TAGS.has(el.tagName) || el.childElementCount === 0) return null;
    const overflowsY = el.scrollHeight > el.clientHeight + 1;
    const overflowsX = el.scrollWidth > el.clientWidth + 1;
    if (!overflowsY && !overflowsX) return null;
    // The scrolling element's overflow belongs to the viewport, which pruning handles.
    if (el === frame.doc.scrollingElement) return null;
    const style = frame.win.getComputedStyle(el);
    const clipsY = overflowsY && CLIPPING_OVERFLOW.has(style.overflowY);
    const clipsX = overflowsX && CLIPPING_OVERFLOW.has(style.overflowX);
    if (!clipsY && !clipsX) return null;
    const box = el.getBoundingClientRect();
    const rect: Rect = {
      x: box.left + frame.offsetX,
      y: box.top + frame.offsetY,
      w: box.width,
      h: box.height,
    };
    const scrollable =
      overflowsY && SCROLLING_OVERFLOW.has(style.overflowY) && el.clientHeight > 40;
    if (scrollable) this.containers.push({ el, frame, rect });
    return { rect, scrollable };
  }
}
