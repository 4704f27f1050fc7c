// scroll(direction) and scroll(id). A direction scrolls the page; when the page does not scroll
// at all (app shells scroll an inner box), the largest visible scroll container does.
// A scroll that moves nothing fails, so the model learns it reached the end.
import type { ScrollDirection } from '@tandem/contracts';
import { fail } from './result';

const PAGE_FRACTION = 0.8;

interface Scroller {
  el: Element;
  left: number;
  top: number;
}

const position = (el: Element): Scroller => ({ el, left: el.scrollLeft, top: el.scrollTop });

function moved(before: Scroller): boolean {
  return (
    Math.abs(before.el.scrollTop - before.top) >= 1 ||
    Math.abs(before.el.scrollLeft - before.left) >= 1
  );
}

function scrollBy(
  el: Element,
  direction: ScrollDirection,
  viewport: { w: number; h: number },
): void {
  const box =
    el === el.ownerDocument.scrollingElement ? viewport : { w: el.clientWidth, h: el.clientHeight };
  const behavior = 'instant' as ScrollBehavior;
  switch (direction) {
    case 'up':
      el.scrollBy({ top: -box.h * PAGE_FRACTION, behavior });
      break;
    case 'down':
      el.scrollBy({ top: box.h * PAGE_FRACTION, behavior });
      break;
    case 'left':
      el.scrollBy({ left: -box.w * PAGE_FRACTION, behavior });
      break;
    case 'right':
      el.scrollBy({ left: box.w * PAGE_FRACTION, behavior });
      break;
    case 'top':
      el.scrollTo({ top: 0, behavior });
      break;
    case 'bottom':
      el.scrollTo({ top: el.scrollHeight, behavior });
      break;
  }
}

function canScroll(el: Element, direction: ScrollDirection): boolean {
  const vertical = direction !== 'left' && direction !== 'right';
  if (vertical ? el.scrollHeight <= el.clientHeight + 1 : el.scrollWidth <= el.clientWidth + 1)
    return false;
  const style = (el.ownerDocument.defaultView ?? window).getComputedStyle(el);
  const overflow = vertical ? style.overflowY : style.overflowX;
  return overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay';
}

/** The biggest visible box that scrolls in that direction (checked in document order, capped). */
function largestScroller(doc: Document, direction: ScrollDirection): Element | undefined {
  let best: Element | undefined;
  let bestArea = 0;
  const all = doc.body?.querySelectorAll('*') ?? [];
  const limit = Math.min(all.length, 20_000);
  for (let i = 0; i < limit; i++) {
    const el = all[i];
    if (!el || el.clientHeight < 50 || !canScroll(el, direction)) continue;
    const area = el.clientWidth * el.clientHeight;
    if (area > bestArea) {
      best = el;
      bestArea = area;
    }
  }
  return best;
}

export function scrollPage(doc: Document, direction: ScrollDirection): string | undefined {
  const win = doc.defaultView ?? window;
  const viewport = { w: win.innerWidth, h: win.innerHeight };
  const page = doc.scrollingElement ?? doc.documentElement;
  const before = position(page);
  scrollBy(page, direction, viewport);
  if (moved(before)) return undefined;
  const vertical = direction !== 'left' && direction !== 'right';
  const pageScrolls = vertical
    ? page.scrollHeight > page.clientHeight + 1
    : page.scrollWidth > page.clientWidth + 1;
  // A page that scrolls but is at its end stays put: the model should hear "at the bottom",
  // not see some sidebar move.
  const inner = pageScrolls ? undefined : largestScroller(doc, direction);
  if (inner) {
    const innerBefore = position(inner);
    scrollBy(inner, direction, viewport);
    if (moved(innerBefore))
      return `the page does not scroll; scrolled its main scroll container instead`;
  }
  return fail(
    'failed',
    `cannot scroll ${direction}: already at the ${direction === 'up' || direction === 'top' ? 'top' : direction === 'left' ? 'left edge' : direction === 'right' ? 'right edge' : 'bottom'}`,
  );
}

/**
 * scroll(id): a scroll container scrolls down by most of its height; any other element is
 * scrolled into the middle of the view.
 */
export function scrollElement(el: Element): string | undefined {
  const win = el.ownerDocument.defaultView ?? window;
  if (canScroll(el, 'down')) {
    const before = position(el);
    scrollBy(el, 'down', { w: win.innerWidth, h: win.innerHeight });
    if (moved(before)) return undefined;
    return fail('failed', 'the container is already scrolled to the bottom');
  }
  el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
  return undefined;
}
