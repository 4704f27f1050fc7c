// The accessible-text additions (../accessible-text.ts) over an htmlparser2 tree, for
// ingestion: it parses pages with htmlparser2 and serializes the main content for turndown, so
// the markers go into the tree before that.
import { type AnyNode, type Document, Element, isTag, isText, Text } from 'domhandler';
import {
  type AccessibleTextAdapter,
  type AccessibleTextOptions,
  cleanAddedText,
  findAdditions,
  MARKER_MODE,
  MARKER_TAG,
  wordAt,
} from '../accessible-text';

const wordNext = (node: AnyNode | null, last: boolean): boolean =>
  node !== null && (isTag(node) || (isText(node) && wordAt(node.data, last)));

function relink(parent: Element | Document): void {
  const children = parent.children;
  children.forEach((child, i) => {
    child.parent = parent;
    child.prev = children[i - 1] ?? null;
    child.next = children[i + 1] ?? null;
  });
}

function removeTexts(el: Element): void {
  const kept = el.children.filter((child) => !isText(child));
  if (kept.length !== el.children.length) {
    el.children = kept;
    relink(el);
  }
  for (const child of kept) if (isTag(child)) removeTexts(child);
}

/**
 * Puts the text that accessibility attributes carry into the tree under `root` (the document's
 * body, say; not the root itself) as MARKER_TAG elements; `doc` resolves aria-labelledby ids.
 * Two steps: the markers go in empty now, found while the <meta> and <svg> elements they follow
 * are still in the tree; the returned function fills them in and drops the glyphs they stand
 * for. Ingestion scores the page's blocks in between, on the page's own text.
 */
export function annotateTree(
  root: Element,
  doc: Document,
  options: AccessibleTextOptions = {},
): () => void {
  let ids: Map<string, Element> | undefined;
  const adapter: AccessibleTextAdapter<AnyNode, Element> = {
    isElement: (node): node is Element => isTag(node),
    textData: (node) => (isText(node) ? node.data : null),
    tag: (el) => el.name.toLowerCase(),
    attr: (el, name) => el.attribs[name] ?? null,
    childNodes: (el) => el.children,
    parent: (el) => (el.parent && isTag(el.parent) ? el.parent : null),
    byId: (id) => {
      if (!ids) {
        ids = new Map();
        const index = (nodes: AnyNode[]): void => {
          for (const node of nodes) {
            if (!isTag(node)) continue;
            const own = node.attribs.id;
            if (own && !ids?.has(own)) ids?.set(own, node);
            index(node.children);
          }
        };
        index(doc.children);
      }
      return ids.get(id) ?? null;
    },
  };
  const fills: (() => void)[] = [];
  for (const { el, mode, text } of findAdditions(adapter, root, options)) {
    const marker = new Element(MARKER_TAG, { [MARKER_MODE]: mode });
    const space = (): Text => new Text(' ');
    if (mode === 'after') {
      const parent = el.parent as Element | Document | null;
      if (!parent) continue;
      // A <meta> or <link> is replaced by its text; anything else is followed by it.
      const gone = el.name === 'meta' || el.name === 'link';
      const kept = gone ? [] : [el];
      parent.children.splice(parent.children.indexOf(el), 1, ...kept, space(), marker, space());
      relink(parent);
    } else {
      // Spaced from words next to it: glyphs were not words, so nothing spaced them.
      const before = mode === 'append' || wordNext(el.prev, true) ? [space()] : [];
      const after = mode === 'replace' && wordNext(el.next, false) ? [space()] : [];
      el.children.push(...before, marker, ...after);
      relink(el);
    }
    fills.push(() => {
      if (mode !== 'append') removeTexts(el);
      marker.children = [new Text(cleanAddedText(text))];
      relink(marker);
    });
  }
  return () => {
    for (const fill of fills) fill();
  };
}
