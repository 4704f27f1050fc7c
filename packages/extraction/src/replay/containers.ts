// Item containers: for each placed item, the lowest common ancestor of its values, lifted
// where needed so that all items' containers have one shape. An item whose optional fields
// are missing (or whose name the model misspelt) has a lower common ancestor than the rest,
// e.g. its price <span> instead of the card; lifting it to the level the other items share
// gives every item the same kind of container, which a single selector can then match.
import { chainUpTo, commonAncestorOf, stableClasses } from './dom';
import type { ItemPlaces } from './items';

/** Same tag, and the classes (where both have some) overlap: "tr" and "tr.odd" are alike. */
function alike(a: Element, b: Element): boolean {
  if (a.localName !== b.localName) return false;
  const ours = stableClasses(a);
  const theirs = stableClasses(b);
  return ours.length === 0 || theirs.length === 0 || ours.some((name) => theirs.includes(name));
}

function chainOf(item: ItemPlaces): Element[] {
  const lca = commonAncestorOf([...item.fields.values()].map(({ el }) => el)) ?? item.anchor;
  return chainUpTo(lca, item.region);
}

/** Share of the placed items that must fit the chosen level; the rest count as misses. */
const FIT = 0.9;

/**
 * One container per placed item (null for items not placed, or not fitting), or why the
 * items do not sit in containers of one shape. The item with most fields found sets the
 * shape: of its ancestors, lowest first, the first one every other item has a like of
 * (between its values and the edge of its region) is the level of all containers. When no
 * level fits every item (say the model listed one item twice, and its second copy was
 * placed on stray values), the level most items fit is taken if 90% do: the misfits then
 * count as disagreements when the recipe is verified.
 */
export function alignContainers(
  items: readonly (ItemPlaces | null)[],
): { containers: (Element | null)[] } | { reason: string } {
  const chains = items.map((item) => (item ? chainOf(item) : null));
  let reference = -1;
  items.forEach((item, i) => {
    const best = reference >= 0 ? (items[reference]?.fields.size ?? 0) : -1;
    if (item && item.fields.size > best) reference = i;
  });
  const referenceChain = chains[reference];
  if (!referenceChain) return { reason: 'no item could be placed on the page' };
  const placed = chains.filter(Boolean).length;
  let best: { containers: (Element | null)[]; fits: number } | null = null;
  for (const level of referenceChain) {
    const containers = chains.map((chain) => chain?.find((el) => alike(el, level)) ?? null);
    const fits = containers.filter(Boolean).length;
    if (fits === placed) return { containers };
    if (!best || fits > best.fits) best = { containers, fits };
  }
  if (best && best.fits >= FIT * placed) return { containers: best.containers };
  return {
    reason:
      'the items do not sit in containers of one shape (no common tag and class around their values)',
  };
}
