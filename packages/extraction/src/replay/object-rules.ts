// Rules of an 'object' recipe (a detail page): each field's selector from the document root,
// unique in the document. A product's name often appears more than once (breadcrumb, <h1>,
// related items), so the places are chosen together: around the field found in fewest places,
// the places of the other fields nearest to it, i.e. the page's main block rather than a list
// of related products.
import type { Root } from './dom';
import {
  commonAncestor,
  compound,
  cssString,
  depthOf,
  hasSameTagSibling,
  isStableId,
  NAMING_ATTRS,
  nthOfType,
  rootElement,
  selectAll,
  stableClasses,
  tagOf,
} from './dom';
import { nearest } from './items';
import type { Located, PageIndex } from './locate';
import { locateValue } from './locate';
import type { FieldRule } from './recipe';
import type { FieldSpec } from './schema-shape';
import { isEmptyValue } from './values';
import { ownValue, setOwn } from '../json';

/** Anchor places tried: a value found in more places than this is a poor anchor anyway. */
const ANCHOR_TRIES = 20;

function isUnique(root: Root, selector: string, el: Element): boolean {
  const matched = selectAll(root, selector);
  return matched.length === 1 && matched[0] === el;
}

function ownKeys(el: Element): string[] {
  const tag = tagOf(el);
  const classes = stableClasses(el);
  const keys = el.id && isStableId(el.id) ? [`#${el.id}`] : [];
  for (const name of NAMING_ATTRS) {
    const value = el.getAttribute(name);
    if (value) keys.push(`${tag}[${name}=${cssString(value)}]`);
  }
  if (classes.length > 0)
    keys.push(compound(el, classes), ...classes.map((name) => `${tag}.${name}`));
  return keys;
}

/** A step of a path: the element's tag and classes, positioned when a sibling shares its tag. */
function step(el: Element): string {
  const own = compound(el, stableClasses(el));
  return hasSameTagSibling(el) ? `${own}:nth-of-type(${nthOfType(el)})` : own;
}

/** The path from the nearest ancestor with a stable id (or the root), unique by construction. */
function anchoredPath(root: Root, el: Element): string {
  const top = rootElement(root);
  const steps: string[] = [];
  for (let node: Element | null = el; node; node = node.parentElement) {
    if (node === top) {
      steps.push(root === top ? ':scope' : tagOf(node));
      break;
    }
    if (node !== el && node.id && isStableId(node.id) && isUnique(root, `#${node.id}`, node)) {
      steps.push(`#${node.id}`);
      break;
    }
    steps.push(step(node));
  }
  return steps.reverse().join(' > ');
}

/** The shortest-looking selector matching this element alone in the document. */
export function uniqueSelector(root: Root, el: Element): string {
  const own = ownKeys(el);
  const parent = el.parentElement;
  const parentKeys = parent ? ownKeys(parent).slice(0, 2) : [];
  const tries = [
    ...own,
    ...parentKeys.flatMap((key) => [own[0], step(el)].map((child) => child && `${key} > ${child}`)),
  ];
  for (const selector of tries) if (selector && isUnique(root, selector, el)) return selector;
  return anchoredPath(root, el);
}

function closeness(anchor: Element, others: readonly Located[][]): number {
  return others.reduce((sum, places) => {
    const near = nearest(places, anchor, null);
    const shared = near && commonAncestor(anchor, near.el);
    return sum + (shared ? depthOf(shared) : 0);
  }, 0);
}

/** Where each field's value is, chosen together (see the file comment); or why not. */
function placeFields(
  index: PageIndex,
  data: Record<string, unknown>,
  fields: readonly FieldSpec[],
): Map<string, Located> | string {
  const found = new Map<string, Located[]>();
  for (const { name, type } of fields) {
    if (isEmptyValue(ownValue(data, name)))
      return `field "${name}" has no value, so there is no place to learn it from`;
    const places = locateValue(index, ownValue(data, name), type);
    if (places.length === 0)
      return `field "${name}": its value ${JSON.stringify(ownValue(data, name))} is not on the page`;
    found.set(name, places);
  }
  const byRarity = [...found.entries()].sort((a, b) => a[1].length - b[1].length);
  const [anchorField, anchorPlaces] = byRarity[0] ?? ['', []];
  const others = byRarity.slice(1).map(([, places]) => places);
  let anchor = anchorPlaces[0];
  let best = -1;
  for (const place of anchorPlaces.slice(0, ANCHOR_TRIES)) {
    const score = closeness(place.el, others);
    if (score > best) [anchor, best] = [place, score];
  }
  if (!anchor) return 'no value of the object is on the page';
  const placed = new Map<string, Located>([[anchorField, anchor]]);
  for (const [name, places] of byRarity.slice(1)) {
    const near = nearest(places, anchor.el, null);
    if (near) placed.set(name, near);
  }
  return placed;
}

/** Rules of an object recipe, in schema order; or why none can be learned. */
export function learnObjectRules(
  root: Root,
  index: PageIndex,
  data: Record<string, unknown>,
  fields: readonly FieldSpec[],
): { fields: Record<string, FieldRule> } | { reason: string } {
  const placed = placeFields(index, data, fields);
  if (typeof placed === 'string') return { reason: placed };
  const rules: Record<string, FieldRule> = {};
  for (const { name, type, required, nullable } of fields) {
    const place = placed.get(name);
    if (!place) return { reason: `field "${name}" could not be placed` };
    const selector = uniqueSelector(root, place.el);
    setOwn(rules, name, {
      selector,
      source: place.attr === null ? 'text' : 'attr',
      ...(place.attr === null ? {} : { attr: place.attr }),
      type,
      required,
      nullable,
    });
  }
  return { fields: rules };
}
