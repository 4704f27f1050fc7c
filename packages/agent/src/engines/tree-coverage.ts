// Whether the V3 tree covers the page well enough to act on (docs/specs.md, "Mode Priority"): a
// tree with no element while the page shows content, or with a couple of elements beside a
// canvas, misses what the user sees. Then the server asks for more of the page, once per step
// (capture/capture.ts): the whole DOM, or a screenshot (mode-router.ts).
import type { PageState } from '../page/page-state';

/** Fewer usable elements than this, beside a canvas, is a poor tree. */
export const MIN_USEFUL_ELEMENTS = 3;

export type TreeCoverage = { poor: false } | { poor: true; reason: string };

/**
 * Poor when no element can be acted on although the page shows something (text, images, a
 * canvas; a client that does not say counts as showing something), or when fewer than
 * MIN_USEFUL_ELEMENTS can beside a canvas, whose drawn controls no tree lists. A blank page
 * is not poor: nothing richer would come back. A page of text with few links is not poor
 * either: the model reads text with readPage, which costs less than the DOM.
 */
export function treeCoverage(page: Pick<PageState, 'tree' | 'viewportContent'>): TreeCoverage {
  const usable = page.tree.filter((n) => !n.occ).length;
  const content = page.viewportContent;
  const canvases = content?.canvases ?? 0;
  const showsSomething =
    content === undefined || canvases + content.images > 0 || content.textLength > 0;
  if (usable === 0 && showsSomething) {
    return {
      poor: true,
      reason: 'the element list is empty although the page shows content',
    };
  }
  if (usable < MIN_USEFUL_ELEMENTS && canvases > 0) {
    const elements = usable === 1 ? '1 element' : `${usable} elements`;
    return { poor: true, reason: `the element list has only ${elements} beside a canvas` };
  }
  return { poor: false };
}
