// Placing each extracted item on the page. A value such as "4.5" may occur in many cards, so
// values are not located one by one: each item first gets an anchor (its value of the field
// that is rarest on the page, typically a name or a SKU), each anchor gets the largest part of
// the page that holds no other item's anchor (its region), and the item's other values are
// looked for inside its region only, nearest to the anchor. Items in one list thus never
// borrow a value from a neighbour, and values shared by all items cannot mislead.
import { commonAncestor, depthOf } from './dom';
import type { Located, PageIndex } from './locate';
import { locateValue } from './locate';
import type { FieldSpec } from './schema-shape';
import { isEmptyValue } from './values';
import { ownValue } from '../json';

export interface ItemPlaces {
  /** Where each field was found, by name; fields without a value or not found are absent. */
  fields: Map<string, Located>;
  anchor: Element;
  /** The highest ancestor of the anchor that holds no other item's anchor. */
  region: Element;
}

export interface FieldStats {
  /** Items with a non-empty value for the field. */
  withValue: number;
  /** Items whose value was found in their own region. */
  found: number;
  /** Items whose value is on the page, but only outside their region. */
  outside: number;
}

export interface ListPlaces {
  /** Per item; null when none of its values is on the page. */
  items: (ItemPlaces | null)[];
  stats: Map<string, FieldStats>;
}

type Candidates = Located[][][];

function candidatesOf(
  index: PageIndex,
  items: readonly Record<string, unknown>[],
  fields: readonly FieldSpec[],
): Candidates {
  const cache = new Map<string, Located[]>();
  return items.map((item) =>
    fields.map(({ name, type }) => {
      const value = ownValue(item, name);
      const key = `${type}:${JSON.stringify(value)}`;
      let found = cache.get(key);
      if (!found) {
        found = locateValue(index, value, type);
        cache.set(key, found);
      }
      return found;
    }),
  );
}

/** Field indices, those found in most items and in fewest places first. */
function anchorOrder(candidates: Candidates, fields: readonly FieldSpec[]): number[] {
  const score = fields.map((_, f) => {
    const lists = candidates.map((perItem) => perItem[f] ?? []);
    const found = lists.filter((list) => list.length > 0);
    const places = found.reduce((sum, list) => sum + list.length, 0);
    return {
      f,
      coverage: found.length / Math.max(1, lists.length),
      spread: places / Math.max(1, found.length),
    };
  });
  score.sort((a, b) => {
    const wellFound = Number(b.coverage >= 0.9) - Number(a.coverage >= 0.9);
    return wellFound || a.spread - b.spread || b.coverage - a.coverage || a.f - b.f;
  });
  return score.map(({ f }) => f);
}

interface Anchor {
  field: number;
  at: Located;
}

/**
 * One anchor per item, never shared. Models list items in page order, so of several places
 * holding the same name the first one after the previous item's anchor is taken.
 */
function pickAnchors(index: PageIndex, candidates: Candidates, order: number[]): (Anchor | null)[] {
  const used = new Set<Element>();
  let previous = -1;
  return candidates.map((perItem) => {
    for (const field of order) {
      const free = (perItem[field] ?? []).filter(({ el }) => !used.has(el));
      const at = free.find(({ el }) => (index.order.get(el) ?? -1) > previous) ?? free[0];
      if (!at) continue;
      used.add(at.el);
      previous = index.order.get(at.el) ?? previous;
      return { field, at };
    }
    return null;
  });
}

/** Each anchor's region (see ItemPlaces.region); null when an anchor holds another one. */
function regionsOf(anchors: readonly (Anchor | null)[], top: Element): (Element | null)[] {
  const SHARED = -1;
  const owner = new Map<Element, number>();
  anchors.forEach((anchor, i) => {
    for (let node: Element | null = anchor?.at.el ?? null; node; node = node.parentElement) {
      const seen = owner.get(node);
      if (seen === SHARED) break;
      owner.set(node, seen === undefined ? i : SHARED);
    }
  });
  return anchors.map((anchor, i) => {
    if (!anchor || owner.get(anchor.at.el) !== i) return null;
    let region = anchor.at.el;
    while (region !== top && region.parentElement && owner.get(region.parentElement) === i) {
      region = region.parentElement;
    }
    return region;
  });
}

/**
 * Of the places (inside the region, when given), the one sharing the deepest ancestor with
 * the anchor; the first such in document order on a tie.
 */
export function nearest(
  places: readonly Located[],
  anchor: Element,
  region: Element | null,
): Located | null {
  let best: Located | null = null;
  let bestDepth = -1;
  for (const place of places) {
    if (region && !region.contains(place.el)) continue;
    const shared = commonAncestor(anchor, place.el);
    const depth = shared ? depthOf(shared) : -1;
    if (depth > bestDepth) [best, bestDepth] = [place, depth];
  }
  return best;
}

/** Finds each item's values on the page (see the file comment). */
export function locateItems(
  index: PageIndex,
  items: readonly Record<string, unknown>[],
  fields: readonly FieldSpec[],
  top: Element,
): ListPlaces {
  const candidates = candidatesOf(index, items, fields);
  const anchors = pickAnchors(index, candidates, anchorOrder(candidates, fields));
  const regions = regionsOf(anchors, top);
  const stats = new Map<string, FieldStats>(
    fields.map(({ name }) => [name, { withValue: 0, found: 0, outside: 0 }]),
  );
  const placed = items.map((item, i): ItemPlaces | null => {
    const anchor = anchors[i];
    const region = regions[i];
    const places = new Map<string, Located>();
    fields.forEach(({ name }, f) => {
      const stat = stats.get(name);
      if (!stat || isEmptyValue(ownValue(item, name))) return;
      stat.withValue++;
      const all = candidates[i]?.[f] ?? [];
      const place =
        anchor && region
          ? anchor.field === f
            ? anchor.at
            : nearest(all, anchor.at.el, region)
          : null;
      if (place) {
        places.set(name, place);
        stat.found++;
      } else if (all.length > 0) stat.outside++;
    });
    return anchor && region ? { fields: places, anchor: anchor.at.el, region } : null;
  });
  return { items: placed, stats };
}
