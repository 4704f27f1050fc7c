// Product pages (page type 'product', page-kind.ts): the region that wins holds the sheet
// (title, price, description, specifications, reviews) and, around it, lists of other
// products the shop shows beside every product ("You may also like", "Customers also
// viewed"). Those lists are told apart by their structure, not by their heading's words: a
// record list (blocks.ts) whose items mostly show a price, with no `<h1>` inside (the sheet's
// own title). The product's own price appears once, its variants' prices in a picker are not
// rich records, and reviews and specification rows carry no prices.
// bench/content: product pages F1 0.645 → 0.650 (8 of 43 change: 5 gain, 0600 0.40 → 0.66;
// 2 lose: 2991, whose gold keeps a marketplace's "also viewed" list, and 3071 −0.01), and a
// collection page the classifier calls a product, 0645 0.62 → 0.90 (collection 0.606 → 0.612).
import { type Element, findFirst, isTag, textOf } from './dom';
import type { Scores } from './blocks';
import { pricesIn } from './page-kind';

/** A list is of other products when at least this share of its items show a price. */
const PRICED_ITEMS = 0.6;
/** Records (items of a repeated structure) a list needs. */
const MIN_ITEMS = 3;
/**
 * Lists of other products are dropped only when they hold at most this share of the region's
 * text: beyond it the region is such a list (a product whose description is loaded by a
 * script, a marketplace's "similar items"), and dropping it would leave nothing.
 */
const MAX_TEASER_SHARE = 0.5;

function isPricedList(el: Element, scores: Scores): boolean {
  const items = el.children.filter((c): c is Element => isTag(c) && scores.records.has(c));
  if (items.length < MIN_ITEMS) return false;
  const priced = items.filter((item) => pricesIn(textOf(item)) > 0).length;
  if (priced < PRICED_ITEMS * items.length) return false;
  return findFirst([el], (e) => e.name === 'h1') === null;
}

function pricedLists(el: Element, scores: Scores, found: Element[]): void {
  for (const child of el.children) {
    if (!isTag(child)) continue;
    if (isPricedList(child, scores)) found.push(child);
    else pricedLists(child, scores, found);
  }
}

/** Drops the lists of other products from a product page's region, in place. */
export function dropPricedTeasers(region: Element, scores: Scores): void {
  const lists: Element[] = [];
  pricedLists(region, scores, lists);
  if (lists.length === 0) return;
  const total = scores.stats.get(region)?.chars ?? 0;
  const listed = lists.reduce((n, list) => n + (scores.stats.get(list)?.chars ?? 0), 0);
  if (listed > MAX_TEASER_SHARE * total) return;
  for (const list of lists) {
    const parent = list.parent;
    if (parent && isTag(parent)) parent.children = parent.children.filter((c) => c !== list);
  }
}
