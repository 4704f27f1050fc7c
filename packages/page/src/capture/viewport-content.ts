// What the viewport shows besides interactive elements (contracts' ViewportContent): canvases,
// images and the amount of text. The server reads it to tell an empty tree on an empty page
// from a page whose controls the tree cannot see, such as buttons drawn on a canvas.
import type { ViewportContent } from '@tandem/contracts';
import type { Rect } from '../dom/geometry';
import { intersection } from '../dom/geometry';

/** Smaller boxes are decorations (icons in text, spacers, tracking pixels). */
const MIN_SIDE = 48;
/** Enough to count a page's media; a gallery of thousands is read no further. */
const MAX_EXAMINED = 300;
const MAX_TEXT = 1_000_000;

function visibleInViewport(el: Element, viewport: Rect): boolean {
  const rect = el.getBoundingClientRect();
  if (rect.width < MIN_SIDE || rect.height < MIN_SIDE) return false;
  const box = { x: rect.left, y: rect.top, w: rect.width, h: rect.height };
  if (!intersection(box, viewport)) return false;
  const style = el.ownerDocument.defaultView?.getComputedStyle(el);
  return style?.visibility !== 'hidden' && style?.opacity !== '0';
}

/** Text of the body without the text of scripts, styles and templates (no layout needed). */
function textLengthOf(doc: Document): number {
  const body = doc.body;
  if (!body) return 0;
  let length = (body.textContent ?? '').replace(/\s+/g, ' ').trim().length;
  for (const hidden of body.querySelectorAll('script, style, noscript, template'))
    length -= (hidden.textContent ?? '').replace(/\s+/g, ' ').trim().length;
  return Math.min(MAX_TEXT, Math.max(0, length));
}

/** Counts of the main document only: frames report nothing the server decides on. */
export function viewportContentOf(
  doc: Document,
  viewport: { width: number; height: number },
): ViewportContent {
  const rect: Rect = { x: 0, y: 0, w: viewport.width, h: viewport.height };
  let canvases = 0;
  let images = 0;
  const media = doc.querySelectorAll('canvas, img, svg, video');
  const examined = Math.min(media.length, MAX_EXAMINED);
  for (let i = 0; i < examined; i++) {
    const el = media[i];
    if (!el || !visibleInViewport(el, rect)) continue;
    if (el.tagName === 'CANVAS') canvases++;
    else images++;
  }
  return { canvases, images, textLength: textLengthOf(doc) };
}
