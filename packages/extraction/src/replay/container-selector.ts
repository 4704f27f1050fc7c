// The item selector of a list recipe. It must match every learned container; it may match a
// few more elements when they read as items too (the model skipped some) or read as nothing
// at all (a header row: the replay drops empty containers), but never elements that read as
// half an item, since those would fail the schema on every page. Of the acceptable selectors
// the one matching fewest extra elements wins ("tbody > tr" over "tr", and a grid's cards
// over the same cards in a "recommended" sidebar), then the cheapest (see cost). Ids and
// positions are never used: they name one page's item, not the kind of item.
import { isHeaderRow } from './columns';
import type { Root } from './dom';
import { cssString, intersect, isIdentifier, selectAll, stableClasses, tagOf } from './dom';
import type { FieldRule } from './recipe';
import { readField } from './read';

/** Empty extra containers tolerated, as a share of all matched (the spot check's bound). */
export const EMPTY_SHARE = 0.2;
/** Attributes with one value on every container that say what it is. */
const KIND_ATTRS = ['itemtype', 'role', 'data-type', 'data-component'];

interface Judged {
  selector: string;
  matched: number;
  extras: number;
  /** Extras reading no field. */
  empty: number;
  /** Extras reading some fields but missing a required one. */
  partial: number;
  /** More extras than items: not read, not acceptable. */
  crowded: boolean;
}

function compounds(elements: readonly Element[]): string[] {
  const [first] = elements;
  if (!first || elements.some((el) => el.localName !== first.localName)) return [];
  const tag = tagOf(first);
  const classes = intersect(elements.map(stableClasses));
  const out = [
    tag + classes.map((name) => `.${name}`).join(''),
    ...classes.map((name) => `${tag}.${name}`),
    tag,
  ];
  const names = first.getAttributeNames();
  for (const name of names) {
    const value = first.getAttribute(name) ?? '';
    // Digits in a name are a build hash (Vue's data-v-7ba5bd90), not a kind of element.
    const named = name.startsWith('data-') && !/\d/.test(name) && isIdentifier(name);
    if (named && elements.every((el) => el.hasAttribute(name))) out.push(`${tag}[${name}]`);
    if (KIND_ATTRS.includes(name) && elements.every((el) => el.getAttribute(name) === value)) {
      out.push(`${tag}[${name}=${cssString(value)}]`);
    }
  }
  return [...new Set(out)];
}

function parentsOf(elements: readonly Element[]): Element[] | null {
  const parents: Element[] = [];
  for (const el of elements) {
    if (!el.parentElement) return null;
    parents.push(el.parentElement);
  }
  return [...new Set(parents)];
}

/**
 * Where the containers and their ancestors carry no stable class (CSS-in-JS pages), a path
 * of tags up to the nearest ancestor that has one, or to <body>: "body > div > div > div".
 */
function anchoredPath(containers: readonly Element[]): string | null {
  const parts = [compounds(containers)[0] ?? '*'];
  let level: readonly Element[] = containers;
  for (let up = 0; up < 8; up++) {
    const parents = parentsOf(level);
    const first = parents?.[0];
    if (!parents || !first || parents.some((el) => el.localName !== first.localName)) return null;
    const classes = intersect(parents.map(stableClasses));
    parts.unshift(tagOf(first) + classes.map((name) => `.${name}`).join(''));
    if (classes.length > 0 || first.localName === 'body') return parts.join(' > ');
    level = parents;
  }
  return null;
}

function candidates(containers: readonly Element[]): string[] {
  const own = compounds(containers);
  const parents = parentsOf(containers);
  const grandparents = parents && parentsOf(parents);
  const up = parents
    ? compounds(parents)
        .slice(0, 1)
        .concat(tagOf(parents[0] as Element))
    : [];
  const out = [...own];
  for (const parent of new Set(up))
    for (const child of own.slice(0, 2)) out.push(`${parent} > ${child}`);
  const top = grandparents ? compounds(grandparents)[0] : undefined;
  if (top && up[0] && own[0]) out.push(`${top} > ${up[0]} > ${own[0]}`, `${top} ${own[0]}`);
  const path = anchoredPath(containers);
  if (path) out.push(path);
  return [...new Set(out)];
}

function judge(
  root: Root,
  selector: string,
  containers: ReadonlySet<Element>,
  rules: readonly FieldRule[],
): Judged | null {
  const matched = selectAll(root, selector);
  const set = new Set(matched);
  for (const el of containers) if (!set.has(el)) return null;
  const extras = matched.filter((el) => !containers.has(el));
  const crowded = extras.length > containers.size;
  const judged: Judged = {
    selector,
    matched: matched.length,
    extras: extras.length,
    empty: 0,
    partial: 0,
    crowded,
  };
  // More extras than items: not a selector of these items (and reading them all is costly).
  if (crowded) return judged;
  for (const el of extras) {
    const read = rules.map((rule) => readField(el, rule) !== null);
    // A header row in <tbody> matches "tr" too; it is the table's header, not a lost item.
    if (!read.some(Boolean)) judged.empty += Number(!isHeaderRow(el));
    else if (rules.some((rule, i) => rule.required && !read[i])) judged.partial++;
  }
  return judged;
}

/**
 * Length, plus a toll per compound without a class or attribute: "div > article" says less
 * about what an item is than "div.grid > article.product-card" and breaks sooner.
 */
function cost(selector: string): number {
  const bare = selector.split(/\s+>?\s*/).filter((part) => /^[\w*-]+$/.test(part)).length;
  return selector.length + 15 * bare;
}

const acceptable = (j: Judged): boolean =>
  !j.crowded && j.partial === 0 && j.empty <= EMPTY_SHARE * j.matched;

/** The item selector (see the file comment), or why none fits. */
export function chooseContainerSelector(
  root: Root,
  containers: readonly Element[],
  rules: readonly FieldRule[],
): { selector: string } | { reason: string } {
  const set = new Set(containers);
  const judged: Judged[] = [];
  // Cheapest first; a fit with no extra element cannot be beaten, so the rest is not queried.
  for (const selector of candidates(containers).sort((a, b) => cost(a) - cost(b))) {
    const j = judge(root, selector, set, rules);
    if (j) judged.push(j);
    if (j && acceptable(j) && j.extras === 0) break;
  }
  const fits = judged.filter(acceptable);
  fits.sort((a, b) => a.extras - b.extras || cost(a.selector) - cost(b.selector));
  const [best] = fits;
  if (best) return { selector: best.selector };
  const [closest] = judged.sort((a, b) => a.extras - b.extras);
  if (!closest) {
    return {
      reason: `no selector matches all ${containers.length} item containers (tried ${candidates(containers).slice(0, 3).join(', ')})`,
    };
  }
  return {
    reason: closest.crowded
      ? `the item selector "${closest.selector}" matches ${closest.extras} more elements than the ${containers.length} items`
      : `the item selector "${closest.selector}" also matches ${closest.extras} elements that are not items (${closest.partial} with some fields only, ${closest.empty} empty)`,
  };
}
