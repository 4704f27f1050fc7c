// Generated list addresses for the "does the list go on?" check (page-onward.ts): page numbers and
// offsets in the query or the path, counted from 0 or 1, a first page with or without its
// number, a category named by a word or an id, other parameters beside the page's, two numbers
// moved at once, and cursor lists. The expected answer comes from the generator's own page
// numbers, never from the code under test: a link leads on exactly when it is a later page of
// the list being read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leadsOn, pagerMoveOf } from './page-onward';

const SEED = 33;
const RUNS = 300;
const HOST = 'https://shop.test';

/** How a list writes its page number: a parameter or a path segment, pages or items counted. */
interface Scheme {
  where: 'query' | 'path';
  /** The parameter's name, or the path segment's prefix (`page/`, `page-`, `Page-`). */
  name: string;
  /** The number of page 1 (a page count from 0 or 1, or an offset from 0). */
  first: number;
  /** How much one page moves the number: 1 for pages, the page size for offsets. */
  step: number;
  /** Page 1 without its number: /c/shoes, then /c/shoes?page=2. */
  bare: boolean;
  /** Parameters every page of the list keeps (a sort order, a view). */
  kept: [string, string][];
  /**
   * With `bare`: the kept parameters are written from page 2 on only, by the pager's links
   * (/c/shoes, then /c/shoes?page=2&sort=1).
   */
  keptByPager: boolean;
}

/** A list's own address: a category word, or an id (/c/7), and the word for its section. */
interface List {
  section: string;
  category: string;
}

const word = fc.stringMatching(/^[a-z]{2,8}$/);
const categoryOf = fc.oneof(word, fc.integer({ min: 1, max: 99_999 }).map(String));
/** A kept parameter's value: a word, or a number (a page size: ?per=24). */
const keptValue = fc.oneof(word, fc.integer({ min: 1, max: 99 }).map(String));
const keptOf = (keys: string[], maxLength: number) =>
  fc.uniqueArray(fc.tuple(fc.constantFrom(...keys), keptValue), {
    maxLength,
    selector: ([k]) => k,
  });

const scheme: fc.Arbitrary<Scheme> = fc.oneof(
  fc.record({
    where: fc.constant('query' as const),
    name: fc.constantFrom('page', 'p', 'pg', 'x1_page'),
    first: fc.constantFrom(0, 1),
    step: fc.constant(1),
    bare: fc.boolean(),
    kept: keptOf(['sort', 'per', 'q'], 2),
    keptByPager: fc.boolean(),
  }),
  fc.record({
    where: fc.constant('query' as const),
    name: fc.constantFrom('start', 'offset', 'startAt'),
    first: fc.constant(0),
    step: fc.constantFrom(10, 15, 24, 48),
    bare: fc.boolean(),
    kept: keptOf(['sort', 'view', 't'], 2),
    keptByPager: fc.boolean(),
  }),
  fc.record({
    where: fc.constant('path' as const),
    name: fc.constantFrom('page/', 'page-', 'Page-'),
    first: fc.constant(1),
    step: fc.constant(1),
    bare: fc.boolean(),
    kept: keptOf(['sort', 'per'], 1),
    keptByPager: fc.boolean(),
  }),
);

/** Page `n` (from 1) of `list`, as the scheme writes it. */
function urlOf(s: Scheme, list: List, n: number): string {
  const number = s.first + (n - 1) * s.step;
  const own = n === 1 && s.bare ? [] : [[s.name, String(number)] as [string, string]];
  const kept = n === 1 && s.bare && s.keptByPager ? [] : s.kept;
  const base = `${HOST}/${list.section}/${list.category}/`;
  if (s.where === 'path') {
    const path = own.length > 0 ? `${base}${s.name}${number}/` : base;
    return kept.length > 0 ? `${path}?${new URLSearchParams(kept).toString()}` : path;
  }
  const query = new URLSearchParams([...kept, ...own]).toString();
  return query ? `${base}?${query}` : base;
}

/** The first run's pager move: read page 1 at `from`, click Next page (to `to`), read page 2. */
function moveOf(from: string, to: string) {
  const move = pagerMoveOf(from, to);
  if (!move) throw new Error(`the pager did not move: ${from} → ${to}`);
  return move;
}

/** Whether a link to `target` on `here` leads on past it. */
const leads = (move: ReturnType<typeof moveOf>, here: string, target: string) =>
  leadsOn([{ href: target, rel: [], disabled: false }], here, move) !== null;

/** Two lists of one kind: the one the routine was learned on, and the one a rerun reads. */
const lists = fc
  .tuple(word, categoryOf, categoryOf)
  .filter(([, a, b]) => a !== b)
  .map(([section, a, b]): [List, List] => [
    { section, category: a },
    { section, category: b },
  ]);

const pages = fc.record({
  here: fc.integer({ min: 2, max: 12 }),
  to: fc.integer({ min: 1, max: 14 }),
});

describe('laterPage on generated list addresses', () => {
  it('is a later page of the list being read, on the learned list or another of its kind', () => {
    fc.assert(
      fc.property(
        scheme,
        lists,
        pages,
        fc.boolean(),
        (s, [learned, other], { here, to }, rerun) => {
          const move = moveOf(urlOf(s, learned, 1), urlOf(s, learned, 2));
          const list = rerun ? other : learned;
          const target = urlOf(s, list, to);
          expect(leads(move, urlOf(s, list, here), target), target).toBe(to > here);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('is never another list, another query, or another site', () => {
    fc.assert(
      fc.property(scheme, lists, pages, (s, [learned, other], { here, to }) => {
        const move = moveOf(urlOf(s, learned, 1), urlOf(s, learned, 2));
        const at = urlOf(s, learned, here);
        // A link to the other list of the kind, to any of its pages.
        expect(leads(move, at, urlOf(s, other, to))).toBe(false);
        // A later page of this list under another sort order, or on another site. A word the
        // pager wrote beside the page's number as it left a bare first page may as well be a
        // cursor (Reddit's ?after=): one move cannot tell, and reading it as one errs on the
        // side of "the list goes on" (the agent takes over), not of a list cut short.
        const later = new URL(urlOf(s, learned, here + 1));
        const sort = s.kept.find(([k]) => k === 'sort')?.[1];
        const cursorLike = s.bare && s.keptByPager && sort !== undefined && /\D/.test(sort);
        later.searchParams.set('sort', later.searchParams.get('sort') === 'zz' ? 'yy' : 'zz');
        if (!cursorLike) expect(leads(move, at, later.href)).toBe(false);
        expect(
          leads(move, at, urlOf(s, learned, here + 1).replace(HOST, 'https://other.test')),
        ).toBe(false);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('reads two numbers moved at once: a later page, an earlier one only when one falls', () => {
    const twoNumbers = fc.record({
      // An item count or an offset, with a page number beside it (both grow) or an id that
      // counts down (Hacker News: ?next=<id>&n=31).
      count: fc.constantFrom('n', 'count', 'start'),
      other: fc.constantFrom('p', 'page', 'next', 'max_id'),
      size: fc.integer({ min: 10, max: 48 }),
      id: fc.integer({ min: 1_000_000, max: 99_999_999 }),
      bare: fc.boolean(),
    });
    fc.assert(
      fc.property(lists, pages, twoNumbers, fc.boolean(), (ls, { here, to }, n, rerun) => {
        const falls = n.other === 'next' || n.other === 'max_id';
        const at = (list: List, page: number) => {
          const other = falls ? n.id - (page - 1) * n.size * 7 : page;
          const own = new URLSearchParams([
            [n.count, String((page - 1) * n.size + (n.count === 'start' ? 0 : 1))],
            [n.other, String(other)],
          ]);
          const query = page === 1 && n.bare ? '' : `?${own.toString()}`;
          return `${HOST}/${list.section}/${list.category}/${query}`;
        };
        const [learned, other] = ls;
        const move = moveOf(at(learned, 1), at(learned, 2));
        const list = rerun ? other : learned;
        const earlier = falls && to !== here && !(to === 1 && n.bare);
        expect(leads(move, at(list, here), at(list, to))).toBe(to > here || earlier);
        expect(leads(move, at(list, here), at(rerun ? learned : other, to))).toBe(false);
        expect(leads(move, at(list, here), `${at(list, here + 1)}&sort=new`)).toBe(false);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('is another page of a cursor list, never this page, the first or another query', () => {
    const cursor = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{3,23}$/);
    fc.assert(
      fc.property(
        lists,
        fc.constantFrom('after', 'cursor', 'pageToken'),
        fc.uniqueArray(cursor, { minLength: 3, maxLength: 3 }),
        fc.boolean(),
        ([learned, other], key, [c2, c3, c9], rerun) => {
          const at = (list: List, value?: string) =>
            `${HOST}/${list.section}/${list.category}/${value ? `?${key}=${value}` : ''}`;
          const move = moveOf(at(learned), at(learned, c2));
          const list = rerun ? other : learned;
          const here = at(list, c3);
          expect(leads(move, here, at(list, c9))).toBe(true);
          expect(leads(move, here, here)).toBe(false);
          expect(leads(move, here, at(list))).toBe(false);
          expect(leads(move, here, at(rerun ? learned : other, c9))).toBe(false);
          expect(leads(move, here, `${at(list, c9)}&sort=new`)).toBe(false);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
