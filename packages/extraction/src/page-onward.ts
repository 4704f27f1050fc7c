// Whether a list page goes on past it, from its links: a routine ends where the first run's list
// ended, and tells a longer list by the element it paged with. When that element is there under
// another name ("More products" for "Next page"), the tree cannot tell it from any other link;
// the page's links can: a link to a later page of the list (the URL the first run's pager led
// to, its page number or cursor moved on) or one the page marks rel="next". The check runs in
// the server's worker pool, in the same parse that reads the items (PageReadRequest.onward): a
// page may hold tens of thousands of links, and shaping each one is no work for the request's
// thread.
import type { PageLink } from '@tandem/contracts';

const parse = (url: string, base?: string): URL | null => {
  try {
    return new URL(url, base);
  } catch {
    return null;
  }
};

/** A URL as compared: no fragment, its query parameters in one order. */
function keyOf(u: URL): string {
  const params = [...u.searchParams].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return `${u.origin}${u.pathname}?${new URLSearchParams(params).toString()}`;
}

const sameUrl = (a: URL, b: URL) => keyOf(a) === keyOf(b);

/**
 * A URL with its numbers taken out (`shape`), and those numbers in order: the pages of one list
 * share a shape and differ in one number (?page=3, ?start=40, /page/3/, /page-3, Page-3). A run
 * of more than 9 digits is an id, not a page: it stays in the shape.
 */
interface Shape {
  shape: string;
  numbers: number[];
}

function shapeOf(u: URL): Shape {
  const numbers: number[] = [];
  const shape = keyOf(u).replace(/\d+/g, (run) => {
    if (run.length > 9) return run;
    numbers.push(Number(run));
    return '#';
  });
  return { shape, numbers };
}

/**
 * The most query parameters, and the most numbers, of a URL the check compares: a list's page
 * has a few. The links come from the page: a page of 2,000 links of 300 parameters each took
 * 0.3–0.6 s to shape and sort. A URL past either is none of the list's pages (its rel="next"
 * still counts).
 */
const MAX_URL_PARTS = 64;

/**
 * Whether a URL is within MAX_URL_PARTS: one pass over its characters that stops at the limit
 * (splitting a hostile URL into its thousand numbers costs more than the check saves).
 */
function judged(u: URL): boolean {
  const text = `${u.pathname}${u.search}`;
  let [numbers, params, inNumber] = [0, 1, false];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 48 && c <= 57;
    if (digit && !inNumber && ++numbers > MAX_URL_PARTS) return false;
    if (c === 38 && ++params > MAX_URL_PARTS) return false; // '&'
    inNumber = digit;
  }
  return true;
}

/** What names a number: at most this many characters of its part of the URL before it. */
const NAME_LENGTH = 32;

/** A number of shapeOf as namedNumbers reads it. */
interface NamedNumber {
  /** The number with what names it in its part of the URL (`page=2`, `ID-48`, `#c#c#_page=2`). */
  name: string;
  /**
   * Whether it stands whole: followed by the end of the URL or of its part (`/`, `&`, `.`:
   * `page=2`, `/page/2/`, `page-2.html`), not inside a name (`x1_page`).
   */
  whole: boolean;
}

/**
 * The numbers of shapeOf, each named and whether it stands whole. One pass: the URL comes from a
 * page, and a long one holds many numbers.
 */
function namedNumbers(u: URL): NamedNumber[] {
  const key = keyOf(u);
  const named: NamedNumber[] = [];
  let [name, end] = ['', 0];
  for (const m of key.matchAll(/\d+/g)) {
    const gap = key.slice(end, m.index);
    const part = Math.max(gap.lastIndexOf('/'), gap.lastIndexOf('?'), gap.lastIndexOf('&'));
    name = (part >= 0 ? gap.slice(part + 1) : name + gap).slice(-NAME_LENGTH);
    end = m.index + m[0].length;
    const id = m[0].length > 9;
    const whole = /^(?:$|[/&.])/.test(key.charAt(end));
    if (!id) named.push({ name: `${name}${m[0]}`, whole });
    name = `${name}${id ? m[0] : '#'}`.slice(-NAME_LENGTH);
  }
  return named;
}

/** Where `to` differs from `from` in one number alone (same shape), else -1. */
function movedAt(from: Shape, to: Shape): number {
  if (from.shape !== to.shape) return -1;
  const moved = from.numbers.flatMap((n, i) => (n === to.numbers[i] ? [] : [i]));
  return moved.length === 1 ? (moved[0] as number) : -1;
}

/**
 * Which of `to`'s numbers the move added, when `to` has more numbers and `from`'s are among them
 * in order, each as named (namedNumbers: /c/shoes → /c/shoes?page=2, /c/7 → /c/7?page=2,
 * ?sort=2 → ?page=2&sort=2, /blog → /blog?x1_page=2): the last one added, a list's page number
 * coming after what names the list. When the move added several numbers that stand whole (a
 * bare first page whose pager writes its settings too: /c → /c?page=2&sort=1), any of them may
 * be the page's: each is returned. Empty otherwise.
 */
function addedAt(from: URL, to: URL): number[] {
  const [before, after] = [namedNumbers(from), namedNumbers(to)];
  if (after.length <= before.length) return [];
  let matched = 0;
  const added: number[] = [];
  after.forEach((n, i) => {
    if (matched < before.length && n.name === before[matched]?.name) matched++;
    else added.push(i);
  });
  if (matched < before.length) return [];
  const standing = added.filter((i) => after[i]?.whole);
  return standing.length > 1 ? standing : added.slice(-1);
}

/** A URL's query: each key with its values, in order. */
function queryOf(u: URL): Map<string, string> {
  const keys = new Set(u.searchParams.keys());
  return new Map([...keys].map((k) => [k, u.searchParams.getAll(k).join('\n')]));
}

const isNumber = (value: string | undefined) => value !== undefined && /^\d+$/.test(value);

/**
 * The query keys a cursor pager moved: on the same path, the keys whose values the move
 * changed or added, one of them to a value that is not a number (?after=x81 → ?after=k02;
 * Reddit's count and after), or two or more numbers at once (Hacker News's next id and count:
 * ?next=47049744&n=31). Null for any other move: one page number has its own rule, which tells
 * a later page from an earlier one by the place of the number alone.
 */
function cursorKeys(before: URL, after: URL): string[] | null {
  if (before.origin !== after.origin || before.pathname !== after.pathname) return null;
  const [b, a] = [queryOf(before), queryOf(after)];
  if ([...b.keys()].some((k) => !a.has(k))) return null;
  const moved = [...a].filter(([k, v]) => b.get(k) !== v);
  const cursor = moved.some(([, v]) => /\D/.test(v)) || moved.length > 1;
  return cursor ? moved.map(([k]) => k) : null;
}

/**
 * Whether a link is another page of a cursor list, as the pager moved it: this page with every
 * key the pager moved set to another value, the rest of the query as it is. A cursor does not
 * tell later from earlier; a "Previous" link that writes its cursor the same way reads as
 * leading on, which hands the routine to the agent (tokens), where missing a later page would
 * store part of the list as all of it. When the keys hold numbers only, they do on the next
 * page too, and one of them must grow: an item count or an offset does on a later page (an id
 * may count down), and a page of numbers that all fall is an earlier one.
 */
function cursorPage(keys: readonly string[], here: URL): (target: URL) => boolean {
  const h = queryOf(here);
  // A page without the pager's keys is no page of a cursor list: none of its links is either.
  if (!keys.every((k) => h.has(k))) return () => false;
  const numbers = keys.every((k) => isNumber(h.get(k)));
  return (target) => {
    if (target.origin !== here.origin || target.pathname !== here.pathname) return false;
    const t = queryOf(target);
    if (t.size !== h.size) return false;
    const moved = [...h].every(
      ([k, v]) => t.has(k) && (keys.includes(k) ? t.get(k) !== v : t.get(k) === v),
    );
    if (!moved || !numbers) return moved;
    // Numbers the pager wrote stay numbers on its next page, and one of them grows.
    return (
      keys.every((k) => isNumber(t.get(k))) && keys.some((k) => Number(t.get(k)) > Number(h.get(k)))
    );
  };
}

/**
 * The first run's pager move: the page it was clicked on (`before`) and the page it led to
 * (`after`), as text (it crosses into the worker pool with the read).
 */
export interface PagerMove {
  before: string;
  after: string;
}

/**
 * The pager move from `before` to `after`; null when it led nowhere new (the same page, or a
 * fragment of it: "#" on a carousel's arrow) or either is no URL.
 */
export function pagerMoveOf(before: string, after: string): PagerMove | null {
  const [b, a] = [parse(before), parse(after)];
  return b && a && !sameUrl(b, a) ? { before, after } : null;
}

/** A pager move with both its pages parsed. */
interface Move {
  before: URL;
  after: URL;
}

/**
 * Whether a link's target is a page of the list after `here`, as the first run's pager moved:
 * the page it led to, from the page it left; or a page that differs from `here` in one number
 * alone, a larger one, in the place where the pager moved a number or added one (?page= from
 * page 2 on), on a page of the shape it led to or of another list of the same kind; anywhere
 * in that shape when the first page's URL cannot tell the place. A numbered pager's link two
 * pages on proves as much as the next one: the list goes on. Page 2's next page is known by
 * its shape, whatever the first page's URL was (no number, a number that counts pages from 0
 * or 1, or an offset).
 */
function laterPage(move: Move, here: URL): (target: URL) => boolean {
  if (![here, move.before, move.after].every(judged)) return () => false;
  // Shapes of the pages the check compares every link with: worked out once per page.
  const [h, a, b] = [shapeOf(here), shapeOf(move.after), shapeOf(move.before)];
  const fromBefore = sameUrl(here, move.before);
  // The number the pager moved on; or, when page 1's URL had another shape (no number where
  // page 2 has one), the number it added (any of them, when it added several that stand whole).
  const reshaped = b.shape !== a.shape;
  const pagerMoved = reshaped
    ? addedAt(move.before, move.after)
    : [movedAt(b, a)].filter((i) => i >= 0);
  const first = pagerMoved[0];
  const forward =
    first !== undefined && (reshaped || (a.numbers[first] ?? 0) > (b.numbers[first] ?? 0));
  const pagerPlaces = pagerMoved.map((m) => h.numbers.length - (a.numbers.length - m));
  const keys = cursorKeys(move.before, move.after);
  const cursor = keys ? cursorPage(keys, here) : null;
  return (target) => {
    if (!judged(target)) return false;
    if (fromBefore && sameUrl(target, move.after)) return true;
    if (cursor?.(target)) return true;
    const t = shapeOf(target);
    const i = movedAt(h, t);
    if (i < 0 || (t.numbers[i] ?? 0) <= (h.numbers[i] ?? 0)) return false;
    // Any number of a page of the shape the pager led to when the pager's number cannot be
    // told (page 1's URL had another shape, its numbers not among page 2's); else the number
    // in the place the pager moved or added it, on a page of that shape or of another list of
    // the same kind (a rerun with another category: /c/boots?page=2 for /c/shoes?page=2). The
    // place is counted from the end: what names the list comes first, and another list may be
    // named by an id (/c/7).
    const anyNumber = t.shape === a.shape && reshaped && pagerMoved.length === 0;
    return anyNumber || (forward && pagerPlaces.includes(i));
  };
}

/** What a read asks of the page's links: whether they lead on past it. */
export interface OnwardAsk {
  /** The page read. */
  url: string;
  /** The first run's pager move; null when it led to no other URL (rel="next" still counts). */
  move: PagerMove | null;
  /** Links the client listed outside a snapshot scoped to the list (the pager beside it). */
  outside?: readonly PageLink[];
}

/**
 * What of the page's links leads on past it: a later page of the list (laterPage, from the
 * first run's pager move) or a link the page marks rel="next"; null when nothing does. A link
 * the page marks disabled leads nowhere.
 */
export function leadsOn(
  links: readonly PageLink[],
  url: string,
  move: PagerMove | null,
): string | null {
  const here = parse(url);
  const [before, after] = move ? [parse(move.before), parse(move.after)] : [null, null];
  const later = before && after && here ? laterPage({ before, after }, here) : null;
  for (const link of links) {
    if (!link.href || link.disabled) continue;
    const target = parse(link.href, url);
    if (!target || !/^https?:$/.test(target.protocol)) continue;
    if (link.rel.includes('next')) return `the page links its next page (${target.href})`;
    if (later?.(target)) return `the page links ${target.href}, a later page of the list`;
  }
  return null;
}
