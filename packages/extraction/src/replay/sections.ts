// Items divided by a heading. A shop that adds a "Recommended for you" strip (or "Recently
// viewed", "Related") after the recipe was learned often renders it with the grid's own card
// markup: the item selector matches its cards too, every check on each card passes, and the
// replay would return them as items. What sets them apart is the page's structure, in any
// language: a heading outside the cards stands between the catalogue's items and those. The
// learning page says whether its items were divided so (a list grouped by date or category);
// when they were not, a page whose items are is read by the model instead.
import type { ReplayRow } from './apply';
import type { Root } from './dom';
import { commonAncestorOf, intersect, selectAll, stableClasses } from './dom';
import type { ReplayRecipe } from './recipe';

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

/** The spot check's reason to decline a list replay whose items a heading newly divides. */
export function dividedProblem(
  root: Root,
  recipe: ReplayRecipe,
  rows: readonly Pick<ReplayRow, 'container'>[],
): string | null {
  if (recipe.sectioned || recipe.container === null) return null;
  const items = rows.map((row) => row.container);
  if (!headingBetween(items, selectAll(root, recipe.container))) return null;
  return 'a heading outside the items divides them here, and none did on the learning page (a "Recommended" strip in the same markup?): the model tells the list from what is beside it';
}
