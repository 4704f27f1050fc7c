// The sampled cross-check of a replay: the spot check only sees what the recipe points at, so a
// page that changed in a way the selectors still fit (a column meaning something else, items the
// selector now misses at the top) passes it. A recipe's first replay, and every Nth after it,
// also has the model read a small slice of the page: where the replayed items start, the first
// few of them. The replay stands when the model's items of that slice are replayed items
// and the replay's first items are among the model's; otherwise the recipe is retired.
import { isJsonObject, ownValue, type JsonObject } from './json';
import { isEmptyValue, sameValue } from './replay/values';

/** Replayed items the model reads again: enough to compare, few enough to stay cheap. */
export const CHECK_ITEMS = 3;
/** The most Markdown the model reads for the check, whatever the items' size. */
export const CHECK_SLICE_CHARS = 2_000;
/** Lines kept before the first replayed item: a table's header row and its rule, a heading. */
const LEAD_LINES = 3;

/** How often a recipe's replays are cross-checked by default: its first, then every 10th. */
export const DEFAULT_REPLAY_CHECK_EVERY = 10;

/** Whether replay number `replays` (0 for the recipe's first) is cross-checked. */
export const checkDue = (replays: number, every: number): boolean =>
  replays % Math.max(1, Math.floor(every)) === 0;

/** A value of the replayed data the Markdown should show: the first non-blank string field. */
function firstText(item: unknown): string | null {
  if (!isJsonObject(item)) return null;
  for (const value of Object.values(item)) {
    if (typeof value === 'string' && value.trim().length >= 2) return value.trim();
  }
  return null;
}

/** Where the line holding `text` starts, searching from `from`; -1 when it is not there. */
function lineOf(markdown: string, text: string | null, from: number): number {
  const at = text === null ? -1 : markdown.indexOf(text, from);
  return at < 0 ? -1 : markdown.lastIndexOf('\n', at) + 1;
}

/**
 * The slice the model reads: from a few lines before the first replayed item (its first text
 * field, found in the Markdown) to the line of the item after the first CHECK_ITEMS, at most
 * CHECK_SLICE_CHARS, cut at a line end. `cut` says whether the slice may end inside an item
 * (it did not end where a replayed item starts), so that the model's last item may be half read.
 */
export function checkSlice(markdown: string, data: unknown): { text: string; cut: boolean } {
  const items: unknown[] = Array.isArray(data) ? data : [data];
  const first = lineOf(markdown, firstText(items[0]), 0);
  let start = Math.max(0, first);
  for (let i = 0; i < LEAD_LINES && start > 0; i++) {
    start = markdown.lastIndexOf('\n', start - 2) + 1;
  }
  let next = first < 0 ? -1 : first + 1;
  for (let i = 1; i <= CHECK_ITEMS && next > 0 && i < items.length; i++) {
    next = lineOf(markdown, firstText(items[i]), next);
    if (i < CHECK_ITEMS && next >= 0) next += 1;
  }
  const limit = start + CHECK_SLICE_CHARS;
  if (Array.isArray(data) && items.length > CHECK_ITEMS && next > start && next <= limit) {
    return { text: markdown.slice(start, next), cut: false };
  }
  if (limit >= markdown.length) return { text: markdown.slice(start), cut: false };
  const lineEnd = markdown.lastIndexOf('\n', limit);
  return { text: markdown.slice(start, lineEnd > start ? lineEnd : limit), cut: true };
}

/** The model's item says what the replayed one says: every field the model read, the same. */
function sameItem(model: unknown, replayed: unknown): boolean {
  if (!isJsonObject(model) || !isJsonObject(replayed)) return false;
  const read = Object.keys(model).filter((key) => !isEmptyValue(ownValue(model, key)));
  return (
    read.length > 0 && read.every((key) => sameValue(ownValue(model, key), ownValue(replayed, key)))
  );
}

export type CheckVerdict =
  | { verdict: 'agree'; items: number }
  | { verdict: 'inconclusive'; reason: string }
  | { verdict: 'disagree'; reason: string };

const show = (item: unknown): string => JSON.stringify(item).slice(0, 120);

/** The model's data for the slice against the replayed data of the whole page. */
export function compareCheck(model: unknown, replayed: unknown, cut: boolean): CheckVerdict {
  if (Array.isArray(replayed)) {
    if (!Array.isArray(model)) return { verdict: 'inconclusive', reason: 'the model read no list' };
    // The slice may end inside an item: the model's last one may be read from half of it.
    const whole = cut ? model.slice(0, -1) : model;
    if (whole.length === 0) {
      return { verdict: 'inconclusive', reason: 'no whole item in the slice' };
    }
    const stray = whole.find((item) => !replayed.some((r) => sameItem(item, r)));
    if (stray !== undefined) {
      return {
        verdict: 'disagree',
        reason: `the model read ${show(stray)}, which the replay lacks`,
      };
    }
    const missed = replayed
      .slice(0, whole.length)
      .find((r) => !model.some((item) => sameItem(item, r)));
    if (missed !== undefined) {
      return {
        verdict: 'disagree',
        reason: `the replay read ${show(missed)}, which the model did not`,
      };
    }
    return { verdict: 'agree', items: whole.length };
  }
  if (!isJsonObject(replayed) || !isJsonObject(model)) {
    return { verdict: 'inconclusive', reason: 'the model read no object' };
  }
  const read: JsonObject = {};
  for (const [key, value] of Object.entries(model)) if (!isEmptyValue(value)) read[key] = value;
  if (Object.keys(read).length === 0) {
    return { verdict: 'inconclusive', reason: 'the model read no field in the slice' };
  }
  if (!sameItem(read, replayed)) {
    return { verdict: 'disagree', reason: `the model read ${show(read)}` };
  }
  return { verdict: 'agree', items: 1 };
}

/** A short, stable hash of the recipe (FNV-1a): a relearned recipe gets another recipeId. */
export function recipeHash(recipe: unknown): string {
  const text = JSON.stringify(recipe);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
