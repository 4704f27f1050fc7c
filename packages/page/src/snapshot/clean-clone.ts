// Copies the sections to extract into an inert document, leaving out what is not content:
// scripts and styles, hidden elements, form controls and the elements a grep -v excluded.
// Copying into a document without a browsing context means no custom element constructor,
// image load or script runs in the page because of a snapshot.
import { hiddenTest, isNonContent } from './visibility';
import type { VisibilityOptions } from './visibility';

/** Kept although their inside is not text: images (rendered only when asked) and rules. */
const KEPT_OPAQUE = new Set(['img', 'picture', 'source', 'br', 'hr', 'wbr']);
const DROPPED = new Set(['button', 'dialog']);

export interface CleanCloneOptions extends VisibilityOptions {
  /** Elements left out with their inside. */
  excluded: ReadonlySet<Element>;
  /**
   * Keep, without their inside, the non-text elements whose attributes carry text: named icons
   * (<svg aria-label>) and microdata values (<meta itemprop content>). The Markdown converter
   * writes that text (annotateDom); the other formats show the page's own text only.
   */
  keepNamed?: boolean;
}

/** A non-text element whose attributes say something: see CleanCloneOptions.keepNamed. */
function isNamed(el: Element, tag: string): boolean {
  if (tag === 'meta') return el.hasAttribute('itemprop') && el.hasAttribute('content');
  if (tag === 'link') return el.hasAttribute('itemprop') && el.hasAttribute('href');
  if (tag !== 'svg' || el.getAttribute('aria-hidden') === 'true') return false;
  return (
    el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || titleOf(el) !== null
  );
}

const titleOf = (svg: Element): Element | null => {
  for (let child = svg.firstElementChild; child; child = child.nextElementSibling)
    if (child.localName === 'title') return child;
  return null;
};

/** Whether `node`'s text meets the words beside it with no space between (`edge`). */
const touches = (node: Node | null, edge: RegExp): boolean =>
  node !== null && edge.test(node.textContent ?? '');

export function createCloneTarget(doc: Document): Document {
  return doc.implementation.createHTMLDocument('');
}

/** A copy of `els` under one <div> of `target`, without hidden and excluded elements. */
export function cleanClone(
  els: readonly Element[],
  target: Document,
  options: CleanCloneOptions,
): HTMLElement {
  const hidden = hiddenTest(options);
  const copy = (node: Node, into: Node): void => {
    if (node.nodeType === 3) {
      into.appendChild(target.createTextNode((node as Text).data));
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    const tag = el.localName;
    if (isNonContent(tag) && !KEPT_OPAQUE.has(tag)) {
      if (!options.keepNamed || !isNamed(el, tag) || options.excluded.has(el)) return;
      // A <meta> is never rendered (the engine calls it hidden): its parent was shown.
      if (tag === 'svg' && hidden(el)) return;
      const named = into.appendChild(target.importNode(el, false));
      const title = tag === 'svg' ? titleOf(el) : null;
      if (title) named.appendChild(target.importNode(title, true));
      return;
    }
    if (options.excluded.has(el) || hidden(el)) return;
    if (tag === 'button' && el.closest('h1, h2, h3, h4, h5, h6')) {
      // A heading whose text is a button (card titles, accordions) is still the heading's
      // text: keep the words, drop the control. The words stay an element of their own, set
      // apart from what else the heading holds (a badge after a card's title): run into one
      // text node, no element would hold the title alone for a learned selector to read, and a
      // reader would see "Backend EngineerPromoted", which the page, drawing the button as a
      // box of its own, never shows.
      const words = target.createElement('span');
      for (let child = el.firstChild; child; child = child.nextSibling) copy(child, words);
      if (touches(el.previousSibling, /\S$/)) into.appendChild(target.createTextNode(' '));
      into.appendChild(words);
      if (touches(el.nextSibling, /^\S/)) into.appendChild(target.createTextNode(' '));
      return;
    }
    if (DROPPED.has(tag)) return;
    const clone = target.importNode(el, false);
    into.appendChild(clone);
    if (tag === 'picture') return;
    for (let child = el.firstChild; child; child = child.nextSibling) copy(child, clone);
  };
  const container = target.createElement('div');
  for (const el of els) copy(el, container);
  return container;
}
