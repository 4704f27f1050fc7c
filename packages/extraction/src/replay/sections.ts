// Items divided by a heading. A shop that adds a "Recommended for you" strip (or "Recently
// viewed", "Related") after the recipe was learned often renders it with the grid's own card
// markup: the item selector matches its cards too, every check on each card passes, and the
// replay would return them as items. What sets them apart is the page's structure, in any
// language: a heading outside the cards stands between the catalogue's items and those. The
// learning page says whether its items were divided so (a list grouped by date or category);
// when they were not, a page whose items are is read by the model instead. Below: the heading
// the items sit under, which tells the list from such a strip when no heading divides them.
import type { ReplayRow } from './apply';
import type { Root } from './dom';
import { commonAncestorOf, intersect, selectAll, stableClasses } from './dom';
import { contentWords } from './entity';
import type { ReplayRecipe } from './recipe';
import { HEADING_LENGTH } from './recipe';
import { normalizeText } from './values';

const isHeading = (el: Element): boolean =>
  /^h[1-6]$/.test(el.localName) || el.getAttribute('role') === 'heading';

/**
 * What is a card like the items, whose own heading (its name) divides nothing: what the item
 * selector matched (skipped adverts included), and elements of the items' tag sharing one of
 * their classes (a sold-out card the selector does not match).
 */
function cardLike(items: readonly Element[], matched: readonly Element[]) {
  const tag = items[0]?.localName;
  const classes = intersect(items.map(stableClasses));
  const set = new Set(matched);
  return (el: Element) =>
    set.has(el) ||
    (el.localName === tag &&
      (classes.length === 0 || classes.some((c) => el.classList.contains(c))));
}

/**
 * Whether a heading outside every card (cardLike) stands between two of `items` in document
 * order. `matched`: all the item selector matches, items and skipped ones.
 */
export function headingBetween(items: readonly Element[], matched: readonly Element[]): boolean {
  const top = commonAncestorOf(items);
  if (!top || items.length < 2) return false;
  const wanted = new Set(items);
  const isCard = cardLike(items, matched);
  let seenItem = false;
  let headingAfterItem = false;
  const walk = (el: Element): boolean => {
    if (wanted.has(el)) {
      if (headingAfterItem) return true;
      seenItem = true;
      return false;
    }
    if (isCard(el)) return false;
    if (seenItem && isHeading(el)) headingAfterItem = true;
    for (let child = el.firstElementChild; child; child = child.nextElementSibling) {
      if (walk(child)) return true;
    }
    return false;
  };
  return walk(top);
}

// The heading the items sit under. A redesigned grid the item selector no longer matches (or a
// list that shows nothing now) can leave a "Recommended" strip in the old card markup as all
// the selector matches: no heading divides those cards, and each passes every check. What
// still tells them from the learned list is what they sit under: "Recommended for you", not
// "Products". The learning page's heading is kept in the recipe, and a replay whose items sit
// under another one declines.

/** Headings in these belong to them (a sidebar's filters, a nav), not to what follows them. */
const SECTIONING = new Set(['aside', 'nav', 'section', 'article']);

/** The last heading with text in `el`'s subtree, outside cards and other sections' own. */
function lastHeadingIn(el: Element, isCard: (el: Element) => boolean): Element | null {
  if (isCard(el) || SECTIONING.has(el.localName) || el.hasAttribute('hidden')) return null;
  if (isHeading(el)) return normalizeText(el.textContent ?? '') ? el : null;
  for (let child = el.lastElementChild; child; child = child.previousElementSibling) {
    const found = lastHeadingIn(child, isCard);
    if (found) return found;
  }
  return null;
}

/**
 * The text of the heading `items` sit under: the nearest heading before all of them (before
 * their common ancestor) in document order, leaving out the cards' own headings and those
 * inside a section, aside or nav that does not hold the items. Null: they sit under none.
 */
export function listHeading(items: readonly Element[], matched: readonly Element[]): string | null {
  const top = commonAncestorOf(items);
  if (!top) return null;
  const isCard = cardLike(items, matched);
  for (let el: Element | null = top; el; el = el.parentElement) {
    for (let sib = el.previousElementSibling; sib; sib = sib.previousElementSibling) {
      const found = lastHeadingIn(sib, isCard);
      if (found) return normalizeText(found.textContent ?? '').slice(0, HEADING_LENGTH);
    }
  }
  return null;
}

/**
 * Whether two headings name the same list. Numbers, punctuation, case and filler do not count
 * ("Jobs (24)", "Catalog, page 2"). Headings with no word in common are two lists; so are
 * headings where one is the other plus words ("Related products" beside "Products"), which is
 * how pages name a strip beside their list. Headings that swapped some words but keep one
 * ("Results for shoes", "Results for boots"; "Job listings", "Job results") are taken as the
 * same list: a search heading names its query, and a rename keeps words more often than not;
 * the other checks still judge its items. No heading (or one with no words) is the same only
 * as no heading.
 */
export function sameHeading(learned: string | null, here: string | null): boolean {
  const a = contentWords(learned ?? '');
  const b = contentWords(here ?? '');
  if (a.length === 0 || b.length === 0) return a.length === b.length;
  const shared = a.filter((word) => b.includes(word)).length;
  if (shared === a.length && shared === b.length) return true;
  return shared > 0 && shared < a.length && shared < b.length;
}

/** The words of a URL's path and query values, lower-case ("/c/mens-shoes?page=2"). */
function urlWords(url: string): Set<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return new Set();
  }
  const text = [parsed.pathname, ...parsed.searchParams.values()].join(' ');
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    // A stray "%" in the path: its words as written.
  }
  return new Set(decoded.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * Whether the URL names the list the heading names: every content word of the heading is a
 * word of the URL's path or query, give or take a plural s ("Men's Boot" at /c/mens-boots). A
 * listing for a value the URL carries ("/c/boots", "?category=boots") is headed by that value.
 */
export function namedByUrl(heading: string | null, url: string | null | undefined): boolean {
  const words = contentWords(heading ?? '');
  if (words.length === 0 || !url) return false;
  const inUrl = urlWords(url);
  const named = (word: string) =>
    inUrl.has(word) ||
    inUrl.has(`${word}s`) ||
    (word.endsWith('s') && inUrl.has(word.slice(0, -1)));
  return words.every(named);
}

const quoted = (heading: string | null) =>
  heading === null ? 'no heading' : JSON.stringify(heading.slice(0, 60));

/**
 * The spot check's reason to decline a list replay by what stands around its items: a heading
 * newly dividing them (none did on the learning page), or another heading over them than the
 * learning page's.
 */
export function sectionProblem(
  root: Root,
  recipe: ReplayRecipe,
  rows: readonly Pick<ReplayRow, 'container'>[],
  url?: string | null,
): string | null {
  if (recipe.container === null) return null;
  const items = rows.map((row) => row.container);
  const matched = selectAll(root, recipe.container);
  if (!recipe.sectioned && headingBetween(items, matched))
    return 'a heading outside the items divides them here, and none did on the learning page (a "Recommended" strip in the same markup?): the model tells the list from what is beside it';
  // Recipes stored before the heading was kept are not judged by it.
  if (recipe.heading === undefined) return null;
  const here = listHeading(items, matched);
  if (sameHeading(recipe.heading, here)) return null;
  // The same list for another value of its URL: "Boots" at /c/boots, learned as "Shoes" at
  // /c/shoes. A strip beside the list is headed by words the URL does not carry.
  if (recipe.headingInUrl && namedByUrl(here, url)) return null;
  return `the items sit under ${quoted(here)} here, and under ${quoted(recipe.heading)} on the learning page (a "Recommended" strip in the old markup beside a redesigned list?): the model tells the list from what is beside it`;
}
