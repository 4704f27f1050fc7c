// A fast path for the selectors recipes are made of. A replay reads every field of every item
// with a query from the item's container; jsdom's engine (nwsapi) costs ~50 µs a query
// whatever the selector, so a 500-row table took ~100 ms per field. Matching the small
// grammar learning emits (tag, classes, attributes, :nth-child / :nth-of-type, ":scope", child
// and descendant combinators) by hand is 10-30x faster. Anything outside that grammar (a
// hand-edited recipe) goes to querySelector, so the meaning is always the standard CSS one.

interface Compound {
  scope: boolean;
  /** Lowercase tag, or null for any. */
  tag: string | null;
  classes: string[];
  attrs: { name: string; value: string | null }[];
  nth: { ofType: boolean; n: number } | null;
}

interface Compiled {
  compounds: Compound[];
  /** combinators[i] joins compounds[i] and compounds[i + 1]. */
  combinators: ('>' | ' ')[];
}

const PART =
  /^(?::scope|\*|[a-zA-Z][\w-]*|\.-?[_a-zA-Z][\w-]*|\[[^\s"'>/=\]]+(?:="(?:[^"\\]|\\.)*")?\]|:nth-(?:child|of-type)\(\d+\))/;

const unescape = (value: string): string => value.replace(/\\a /g, '\n').replace(/\\(.)/g, '$1');

function parseCompound(text: string): Compound | null {
  const compound: Compound = { scope: false, tag: null, classes: [], attrs: [], nth: null };
  let rest = text;
  let first = true;
  while (rest) {
    const part = PART.exec(rest)?.[0];
    if (!part) return null;
    rest = rest.slice(part.length);
    if (part === ':scope') compound.scope = true;
    else if (part.startsWith('.')) compound.classes.push(part.slice(1));
    else if (part.startsWith('[')) {
      const eq = part.indexOf('=');
      compound.attrs.push(
        eq < 0
          ? { name: part.slice(1, -1).toLowerCase(), value: null }
          : { name: part.slice(1, eq).toLowerCase(), value: unescape(part.slice(eq + 2, -2)) },
      );
    } else if (part.startsWith(':nth-')) {
      compound.nth = { ofType: part.includes('of-type'), n: Number(part.replace(/\D/g, '')) };
    } else if (first) compound.tag = part === '*' ? null : part.toLowerCase();
    else return null;
    first = false;
  }
  return compound;
}

function parse(selector: string): Compiled | null {
  // Split on combinators outside attribute values (values are quoted and may hold spaces).
  const tokens = selector.trim().match(/(?:[^\s>"[]|\[[^\]"]*(?:"(?:[^"\\]|\\.)*")?\])+|>/g);
  if (!tokens) return null;
  const compounds: Compound[] = [];
  const combinators: ('>' | ' ')[] = [];
  let pending: '>' | ' ' | null = null;
  for (const token of tokens) {
    if (token === '>') {
      if (pending === '>' || compounds.length === 0) return null;
      pending = '>';
      continue;
    }
    const compound = parseCompound(token);
    if (!compound || (compound.scope && compounds.length > 0)) return null;
    if (compounds.length > 0) combinators.push(pending ?? ' ');
    compounds.push(compound);
    pending = null;
  }
  if (pending || compounds.length === 0 || compounds.at(-1)?.scope) return null;
  return { compounds, combinators };
}

function position(el: Element, ofType: boolean): number {
  let n = 1;
  for (let node = el.previousElementSibling; node; node = node.previousElementSibling) {
    if (!ofType || node.localName === el.localName) n++;
  }
  return n;
}

function matchesCompound(el: Element, compound: Compound, scope: Element): boolean {
  if (compound.scope && el !== scope) return false;
  if (compound.tag !== null && el.localName.toLowerCase() !== compound.tag) return false;
  for (const name of compound.classes) if (!el.classList.contains(name)) return false;
  for (const { name, value } of compound.attrs) {
    if (value === null ? !el.hasAttribute(name) : el.getAttribute(name) !== value) return false;
  }
  return !compound.nth || position(el, compound.nth.ofType) === compound.nth.n;
}

/** Right to left, as browsers do; a descendant combinator backtracks over ancestors. */
function matchesFrom(el: Element, compiled: Compiled, k: number, scope: Element): boolean {
  const compound = compiled.compounds[k];
  if (!compound || !matchesCompound(el, compound, scope)) return false;
  if (k === 0) return true;
  if (compiled.combinators[k - 1] === '>') {
    const parent = el.parentElement;
    return !!parent && matchesFrom(parent, compiled, k - 1, scope);
  }
  for (let node = el.parentElement; node; node = node.parentElement) {
    if (matchesFrom(node, compiled, k - 1, scope)) return true;
  }
  return false;
}

const cache = new Map<string, Compiled | null>();
const CACHE_SIZE = 500;

function compiled(selector: string): Compiled | null {
  let found = cache.get(selector);
  if (found === undefined) {
    found = parse(selector);
    if (cache.size >= CACHE_SIZE) cache.clear();
    cache.set(selector, found);
  }
  return found;
}

/** scope.querySelector(selector), faster for recipe selectors; null for an invalid selector. */
export function queryFirst(scope: Element, selector: string): Element | null {
  const fast = compiled(selector);
  if (!fast) {
    try {
      return scope.querySelector(selector);
    } catch {
      return null;
    }
  }
  const last = fast.compounds.length - 1;
  const stack: Element[] = [];
  for (let child = scope.lastElementChild; child; child = child.previousElementSibling)
    stack.push(child);
  for (let el = stack.pop(); el; el = stack.pop()) {
    if (matchesFrom(el, fast, last, scope)) return el;
    for (let child = el.lastElementChild; child; child = child.previousElementSibling)
      stack.push(child);
  }
  return null;
}
