// Block scoring: picks the element that holds the page's main content. Every block element
// (p, div, li, td, h1…) is valued by its own text — the text not inside a nested block:
// plain text counts for, link text counts a little against, and every block costs a little,
// so prose is worth more than menus, link lists and button rows. Repeated siblings with rich
// items (listings, collections, products, forum posts) earn a bonus on their parent. An
// element's score is the sum over its subtree; the main content is the element with the
// highest score, with its link-heavy negative sub-blocks pruned.
import { type AnyNode, type Document, type Element, isTag, isText, weight } from './dom';

const BLOCKS = new Set(
  (
    'address article aside blockquote body dd details dialog div dl dt fieldset figcaption figure ' +
    'footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody td ' +
    'tfoot th thead tr ul'
  ).split(' '),
);

/** Weights, picked on data/pages-dev (bench/content); they move F1 by ±0.005 around here. */
const LINK_WEIGHT = -0.3; // link text in a block counts slightly against it
const BLOCK_COST = 3; // every block with text costs this many characters
const PRUNE_BELOW = 0; // link-heavy sub-blocks scoring below this are dropped
const RECORD_BONUS = 0.6; // share of a record list's text added to its parent
const MIN_RECORDS = 3; // repeated siblings needed for a record list
const RECORD_FRAGMENTS = 2; // text pieces per item of a record list (title, price…)
const RECORD_CHARS = 15; // characters per item of a record list
const PROSE_RECORD = 60; // …or this many per item: repeated paragraphs, posts
const NEAR_TOP = 0.85; // see bestElement

const HIDDEN_STYLE = /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)/i;
/** Hidden by its markup (the same test as the pre-clean's for `preserveHidden: false`). */
const isHidden = (el: Element): boolean =>
  'hidden' in el.attribs || HIDDEN_STYLE.test(el.attribs.style ?? '');

export interface Stats {
  /** Sum of block values in the subtree. */
  value: number;
  /** Text weight (non-space characters) of the subtree, and the part inside links. */
  chars: number;
  links: number;
  /** Text nodes with any text in the subtree. */
  frags: number;
  /** Text weight hidden by markup in the subtree (not in `chars`, worth nothing), and in links. */
  hidden: number;
  hiddenLinks: number;
}

export interface Scores {
  stats: Map<Element, Stats>;
  /** Items of repeated structures: kept whole by pruning. */
  records: Set<Element>;
}

interface Own {
  chars: number;
  links: number;
}

function blockValue(own: Own): number {
  if (own.chars === 0) return 0;
  const plain = own.chars - own.links;
  return plain + LINK_WEIGHT * own.links - BLOCK_COST;
}

/** Bonus of a parent of repeated, rich items (records); they are added to `records`. */
function recordBonus(items: Element[], scores: Scores): number {
  const byTag = new Map<string, Element[]>();
  for (const el of items) {
    const group = byTag.get(el.name);
    if (group) group.push(el);
    else byTag.set(el.name, [el]);
  }
  let bonus = 0;
  for (const group of byTag.values()) {
    if (group.length < MIN_RECORDS || group.length < 0.6 * items.length) continue;
    const stats = group.map((el) => scores.stats.get(el));
    const chars = stats.reduce((n, s) => n + (s?.chars ?? 0), 0);
    const frags = stats.reduce((n, s) => n + (s?.frags ?? 0), 0);
    const rich = frags >= RECORD_FRAGMENTS * group.length && chars >= RECORD_CHARS * group.length;
    if (!rich && chars < PROSE_RECORD * group.length) continue;
    bonus += RECORD_BONUS * chars;
    for (const el of group) scores.records.add(el);
  }
  return bonus;
}

/**
 * How a page is scored. An article's main content is its prose: the lists of teasers around
 * it (related posts, latest news) are repeated rich items too, so on a page that declares
 * itself an article they earn no bonus, and a smaller element than on other pages may win
 * (bench/content, articles: F1 0.917 → 0.933; other page types within ±0.005).
 */
export interface Profile {
  /** Repeated rich siblings earn their parent a bonus. */
  records: boolean;
  /** See bestElement. */
  nearTop: number;
}

export const GENERAL: Profile = { records: true, nearTop: NEAR_TOP };
export const ARTICLE: Profile = { records: false, nearTop: 0.7 };
/**
 * A product page (page-kind.ts): the wrapper that scores best holds the sheet's sibling
 * regions and also what the shop puts around every product (promises, teaser carousels,
 * newsletter, footer links), so a smaller element holding half the top score wins there
 * (bench/content, product pages: F1 0.614 → 0.634; 0.45 and 0.55 give 0.628 and 0.626, 0.3
 * gives 0.603, and without the record bonus 0.603–0.622).
 */
export const PRODUCT: Profile = { records: true, nearTop: 0.5 };

function walk(
  node: AnyNode,
  own: Own,
  inLink: boolean,
  scores: Scores,
  profile: Profile,
): Stats | null {
  if (isText(node)) {
    const n = weight(node.data);
    own.chars += n;
    if (inLink) own.links += n;
    return {
      value: 0,
      chars: n,
      links: inLink ? n : 0,
      frags: n > 0 ? 1 : 0,
      hidden: 0,
      hiddenLinks: 0,
    };
  }
  if (!isTag(node)) return null;
  const block = BLOCKS.has(node.name);
  const mine = block ? { chars: 0, links: 0 } : own;
  const link = inLink || node.name === 'a';
  const total: Stats = { value: 0, chars: 0, links: 0, frags: 0, hidden: 0, hiddenLinks: 0 };
  const elements: Element[] = [];
  for (const child of node.children) {
    const s = walk(child, mine, link, scores, profile);
    if (!s) continue;
    total.value += s.value;
    total.chars += s.chars;
    total.links += s.links;
    total.frags += s.frags;
    total.hidden += s.hidden;
    total.hiddenLinks += s.hiddenLinks;
    if (isTag(child) && s.chars > 0) elements.push(child);
  }
  if (block) total.value += blockValue(mine);
  // Hidden content (closed tabs, clones for another layout, menus shown on hover) stays in
  // the output when its region wins, but never helps a region win.
  if (isHidden(node)) {
    const none: Stats = {
      value: 0,
      chars: 0,
      links: 0,
      frags: 0,
      hidden: total.chars + total.hidden,
      hiddenLinks: total.links + total.hiddenLinks,
    };
    scores.stats.set(node, none);
    return none;
  }
  if (profile.records && elements.length >= MIN_RECORDS)
    total.value += recordBonus(elements, scores);
  scores.stats.set(node, total);
  return total;
}

export function scoreBlocks(doc: Document, profile: Profile = GENERAL): Scores {
  const scores: Scores = { stats: new Map(), records: new Set() };
  const root = { chars: 0, links: 0 };
  for (const child of doc.children) walk(child, root, false, scores, profile);
  return scores;
}

/**
 * The main content: the smallest element (by text) scoring at least `nearTop` of the best
 * score, so that a wrapper adding a little (a byline, a promo strip) does not win.
 */
export function bestElement(scores: Scores, nearTop = NEAR_TOP): Element | null {
  let top = -Infinity;
  for (const s of scores.stats.values()) top = Math.max(top, s.value);
  let best: Element | null = null;
  let bestChars = Infinity;
  for (const [el, s] of scores.stats) {
    if (s.value >= nearTop * top && s.chars < bestChars) {
      best = el;
      bestChars = s.chars;
    }
  }
  return best && withHiddenParts(best, scores);
}

/** A parent adding at most this share of visible text to the winner is the same region. */
const HIDDEN_PARENT_GROWTH = 0.1;
/** …and hidden text of which at most this share is links. */
const MAX_HIDDEN_LINK_SHARE = 0.3;
/** …and at most this many times the winner's visible text. */
const MAX_HIDDEN_GROWTH = 2;

/**
 * The winner widened to the parents that add its hidden parts (closed tabs, accordions) and
 * little visible text (a heading): hidden content earns no score, so the winner may be the
 * open tab alone, and the tabs beside it are the same region. It keeps phase 1 of
 * docs/specs.md ("two-phase SPA ingestion") whole, at a cost on data/pages-dev: two pages
 * (a product, a listing) take hidden text the gold leaves out, overall F1 unchanged.
 */
function withHiddenParts(el: Element, scores: Scores): Element {
  let region = el;
  for (let up = el.parent; up && isTag(up); up = up.parent) {
    const inner = scores.stats.get(region);
    const outer = scores.stats.get(up);
    // Each step must add hidden content: climbing past plain wrappers reaches the page's
    // hidden menus and dialogs (bench/content: overall 0.817 → 0.815 when it does).
    if (!inner || !outer || outer.hidden <= inner.hidden) break;
    if (outer.chars > (1 + HIDDEN_PARENT_GROWTH) * inner.chars) break;
    // Hidden link lists are menus shown on hover, not the region's closed tabs.
    const added = outer.hidden - inner.hidden;
    if (outer.hiddenLinks - inner.hiddenLinks > MAX_HIDDEN_LINK_SHARE * added) break;
    // Closed tabs are of the size of the open one; more hidden text than that is another
    // part of the page (a hidden menu, a dialog).
    if (added > MAX_HIDDEN_GROWTH * inner.chars) break;
    region = up;
  }
  return region;
}

/** Drops the link-heavy sub-blocks of the main element that score below zero (menus). */
export function prune(el: Element, scores: Scores): void {
  el.children = el.children.filter((child) => {
    if (!isTag(child) || scores.records.has(child)) return true;
    const s = scores.stats.get(child);
    if (!s) return true;
    if (!BLOCKS.has(child.name)) {
      prune(child, scores);
      return true;
    }
    if (s.value < PRUNE_BELOW && s.links > 0.5 * s.chars) return false;
    prune(child, scores);
    return true;
  });
}
