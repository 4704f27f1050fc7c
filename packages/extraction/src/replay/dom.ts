// DOM helpers shared by learning and replay: tree relations, and the pieces selectors are made
// of. Works on any Document (jsdom in Node, the real page in a browser): no globals are used,
// since jsdom's Document/Element classes are not Node's globals (instanceof would lie).

/** Document or element a recipe runs in. */
export type Root = Document | Element;

export function isDocument(root: Root): root is Document {
  return root.nodeType === 9;
}

/** The element standing for a root: a document's <html>, or the element itself. */
export function rootElement(root: Root): Element | null {
  return isDocument(root) ? root.documentElement : root;
}

/** Elements whose text never is page content; their subtrees are not searched for values. */
const NOT_CONTENT = new Set(['head', 'script', 'style', 'template', 'noscript']);

/** The root element and every element under it, in document order, minus non-content. */
export function contentElements(root: Root): Element[] {
  const top = rootElement(root);
  if (!top) return [];
  const out: Element[] = [];
  const walk = (el: Element): void => {
    if (NOT_CONTENT.has(el.localName)) return;
    out.push(el);
    for (let child = el.firstElementChild; child; child = child.nextElementSibling) walk(child);
  };
  walk(top);
  return out;
}

export function depthOf(el: Element): number {
  let depth = 0;
  for (let node = el.parentElement; node; node = node.parentElement) depth++;
  return depth;
}

/** Lowest common ancestor (an element is its own ancestor here). */
export function commonAncestor(a: Element, b: Element): Element | null {
  const seen = new Set<Element>();
  for (let node: Element | null = a; node; node = node.parentElement) seen.add(node);
  for (let node: Element | null = b; node; node = node.parentElement) {
    if (seen.has(node)) return node;
  }
  return null;
}

export function commonAncestorOf(elements: readonly Element[]): Element | null {
  let lca: Element | null = elements[0] ?? null;
  for (const el of elements.slice(1)) {
    if (!lca) return null;
    lca = commonAncestor(lca, el);
  }
  return lca;
}

/** Ancestors from `from` (included) up to `to` (included), lowest first. */
export function chainUpTo(from: Element, to: Element): Element[] {
  const chain: Element[] = [];
  for (let node: Element | null = from; node; node = node.parentElement) {
    chain.push(node);
    if (node === to) return chain;
  }
  return chain;
}

const IDENT = /^-?[_a-zA-Z][\w-]*$/;

export function isIdentifier(name: string): boolean {
  return IDENT.test(name);
}

/**
 * Classes that are likely hand-written and so survive a re-render or another page of the same
 * site. CSS-in-JS and CSS-module hashes ("css-1x2y3z", "Card_title__3xYz", "kZyXqW") change
 * between builds, and anything with a digit tends to be an index or a hash ("col-3" is the
 * exception we give up, since a layout class makes a poor item selector anyway).
 */
export function isStableClass(name: string): boolean {
  if (!isIdentifier(name) || /\d/.test(name) || name.length > 40) return false;
  if (/^(?:css|sc|jsx|emotion|svelte|astro|tw)-/i.test(name) || name.startsWith('_')) return false;
  const humps = name.match(/[a-z][A-Z]/g)?.length ?? 0;
  return !(humps >= 2 && !/[-_]/.test(name) && name.length <= 10);
}

export function stableClasses(el: Element): string[] {
  return [...el.classList].filter(isStableClass);
}

/** Hand-written ids: words with few digits and no framework prefix (React's ":r1:", "ember12"). */
export function isStableId(id: string): boolean {
  if (!isIdentifier(id) || id.length > 64 || /\d/.test(id)) return false;
  return !/^(?:ember|react-|radix-|headlessui-|mui-|rc[-_]|uid)/i.test(id);
}

/**
 * Attributes that say what an element is (itemprop="price", data-testid="title"): the same on
 * every item, unlike ids and links, so they make good selectors.
 */
export const NAMING_ATTRS: readonly string[] = [
  'itemprop',
  'data-testid',
  'data-test',
  'data-qa',
  'data-field',
  'data-role',
  'role',
  'name',
];

export function cssString(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ')}"`;
}

/** Tag name usable in a selector (custom elements and SVG names included). */
export function tagOf(el: Element): string {
  return isIdentifier(el.localName) ? el.localName : '*';
}

export function compound(el: Element, classes: readonly string[]): string {
  return tagOf(el) + classes.map((name) => `.${name}`).join('');
}

/** 1-based position among element siblings. */
export function nthChild(el: Element): number {
  let n = 1;
  for (let node = el.previousElementSibling; node; node = node.previousElementSibling) n++;
  return n;
}

/** 1-based position among element siblings of the same tag. */
export function nthOfType(el: Element): number {
  let n = 1;
  for (let node = el.previousElementSibling; node; node = node.previousElementSibling) {
    if (node.localName === el.localName) n++;
  }
  return n;
}

/** Whether a sibling shares the element's tag (then a position is needed to tell them apart). */
export function hasSameTagSibling(el: Element): boolean {
  const parent = el.parentElement;
  if (!parent) return false;
  for (let node = parent.firstElementChild; node; node = node.nextElementSibling) {
    if (node !== el && node.localName === el.localName) return true;
  }
  return false;
}

export function intersect(lists: readonly (readonly string[])[]): string[] {
  const [first, ...rest] = lists;
  if (!first) return [];
  return first.filter((item) => rest.every((list) => list.includes(item)));
}

/** querySelectorAll that answers [] for a selector the engine rejects instead of throwing. */
export function selectAll(root: Root, selector: string): Element[] {
  try {
    return [...root.querySelectorAll(selector)];
  } catch {
    return [];
  }
}

/** A reason when the selector does not parse, else null. */
export function selectorError(root: Root, selector: string): string | null {
  try {
    root.querySelector(selector);
    return null;
  } catch (error) {
    return `invalid selector ${JSON.stringify(selector)}: ${(error as Error).message}`;
  }
}
