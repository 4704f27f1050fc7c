// The "does the list go on?" check of a routine's last read (page-onward.ts): which links of a
// page lead on past it, as the first run's pager moved. Generated addresses are in
// page-onward-shapes.test.ts.
import { describe, expect, it } from 'vitest';
import { leadsOn, pagerMoveOf } from './page-onward';
import { readPage } from './page-reader';

/** Whether `target` is a later page than `here`, as the pager moved from `from` to `to`. */
function later(from: string, to: string, here: string, target: string): boolean {
  const move = pagerMoveOf(from, to);
  if (!move) throw new Error('the pager did not move');
  return leadsOn([{ href: target, rel: [], disabled: false }], here, move) !== null;
}

describe('a later page of the list', () => {
  const p1 = 'https://shop.test/c/?page=1&sort=new';
  const p2 = 'https://shop.test/c/?page=2&sort=new';

  it('is a page on from this one, where the first run’s pager moved the number', () => {
    expect(later(p1, p2, p2, 'https://shop.test/c/?sort=new&page=3')).toBe(true);
    // A numbered pager's link two pages on: the list goes on just as well.
    expect(later(p1, p2, p2, 'https://shop.test/c/?page=5&sort=new')).toBe(true);
    expect(later(p1, p2, p1, p2)).toBe(true);
    expect(later(p1, p2, p2, p1)).toBe(false);
    expect(later(p1, p2, p2, p2)).toBe(false);
    // Another list on the same site, another sort: not this list's next page.
    expect(later(p1, p2, p2, 'https://shop.test/c/?page=3&sort=old')).toBe(false);
    expect(later(p1, p2, p2, 'https://shop.test/d/?page=3&sort=new')).toBe(false);
    expect(later(p1, p2, p2, 'https://other.test/c/?page=3&sort=new')).toBe(false);
    const [s0, s20] = ['https://s.test/c?start=0', 'https://s.test/c?start=20'];
    expect(later(s0, s20, 'https://s.test/c?start=40', 'https://s.test/c?start=60')).toBe(true);
    const [a, b] = ['https://s.test/c/page/1/', 'https://s.test/c/page/2/'];
    expect(later(a, b, b, 'https://s.test/c/page/3/')).toBe(true);
    // A rerun for another category (the routine's value in the URL): that list's next page.
    expect(
      later(
        p1,
        p2,
        'https://shop.test/boots/?page=2&sort=new',
        'https://shop.test/boots/?page=3&sort=new',
      ),
    ).toBe(true);
    expect(
      later(
        p1,
        p2,
        'https://shop.test/boots/?page=2&sort=new',
        'https://shop.test/c/?page=3&sort=new',
      ),
    ).toBe(false);
  });

  // The URL shapes of the next links on pages-dev's list, forum and shop pages (the sites' own,
  // hosts renamed): most lists have no number on their first page. The rule before this one
  // computed page 3's exact URL by carrying page 1 → 2 over, and knew none of these on page 2.
  it('knows page 2’s next page when the first page had no number', () => {
    const cases: [string, string, string][] = [
      ['https://s.test/c', 'https://s.test/c?page=2', 'https://s.test/c?page=3'],
      ['https://s.test/Parts', 'https://s.test/Parts?p=2', 'https://s.test/Parts?p=3'],
      [
        'https://s.test/blog/x',
        'https://s.test/blog/x?90c7c550_page=2',
        'https://s.test/blog/x?90c7c550_page=3',
      ],
      ['https://s.test/issues/', 'https://s.test/issues/page/2/', 'https://s.test/issues/page/3/'],
      [
        'https://s.test/threads/a.37290/',
        'https://s.test/threads/a.37290/page-2',
        'https://s.test/threads/a.37290/page-3',
      ],
      [
        'https://s.test/v?t=112320',
        'https://s.test/v?t=112320&start=15',
        'https://s.test/v?t=112320&start=30',
      ],
      [
        'https://s.test/l/Lenses',
        'https://s.test/l/Lenses?startAt=25',
        'https://s.test/l/Lenses?startAt=50',
      ],
      // The shop renamed the list's slug on page 2, and counts pages from 0.
      [
        'https://s.test/A-Cards/Sub/ID-48',
        'https://s.test/B-Cards/Sub/ID-48/Page-2',
        'https://s.test/B-Cards/Sub/ID-48/Page-3',
      ],
      [
        'https://s.test/shoes',
        'https://s.test/shoes/.zso?t=shoes&p=1',
        'https://s.test/shoes/.zso?t=shoes&p=2',
      ],
    ];
    for (const [first, second, third] of cases) {
      expect(later(first, second, second, third), third).toBe(true);
      expect(later(first, second, first, second), second).toBe(true);
      expect(later(first, second, second, first), first).toBe(false);
    }
  });

  it('knows another category’s next page when the first page had no number', () => {
    // Learned at /c/shoes, whose pager added ?page=2; rerun for boots, on its page 2.
    const [shoes, shoes2] = ['https://s.test/c/shoes', 'https://s.test/c/shoes?page=2'];
    const boots2 = 'https://s.test/c/boots?page=2';
    expect(later(shoes, shoes2, boots2, 'https://s.test/c/boots?page=3')).toBe(true);
    expect(later(shoes, shoes2, boots2, 'https://s.test/c/boots?page=1')).toBe(false);
    expect(later(shoes, shoes2, boots2, 'https://s.test/c/shoes?page=3')).toBe(false);
    // A numbered category: the number the pager added is page 2's second, not its first.
    const [c7, c7p2] = ['https://s.test/c/7', 'https://s.test/c/7?page=2'];
    expect(later(c7, c7p2, 'https://s.test/c/9?page=2', 'https://s.test/c/9?page=3')).toBe(true);
    expect(later(c7, c7p2, 'https://s.test/c/9?page=2', 'https://s.test/c/10?page=2')).toBe(false);
    // An offset added on page 2 (?start=15 after a bare first page), zero-based pages (&p=1).
    const [t, t2] = ['https://s.test/v?t=112320', 'https://s.test/v?t=112320&start=15'];
    expect(later(t, t2, 'https://s.test/v?t=9&start=15', 'https://s.test/v?t=9&start=30')).toBe(
      true,
    );
    const [z, z2] = ['https://s.test/shoes', 'https://s.test/shoes/.zso?t=shoes&p=1'];
    const bootsZ = 'https://s.test/boots/.zso?t=boots&p=1';
    expect(later(z, z2, bootsZ, 'https://s.test/boots/.zso?t=boots&p=2')).toBe(true);
  });

  it('is another page of a cursor list, never page 1, this page or another query', () => {
    const [a, b] = ['https://s.test/c?after=x81', 'https://s.test/c?after=k02'];
    expect(later(a, b, a, b)).toBe(true);
    expect(later(a, b, b, 'https://s.test/c?after=q55')).toBe(true);
    expect(later(a, b, b, b)).toBe(false);
    // Reddit's shape: page 1 bare, then a count and a cursor; "Previous" writes before=.
    const [r1, r2] = ['https://s.test/r/x/', 'https://s.test/r/x/?count=25&after=t3_1a'];
    expect(later(r1, r2, r2, 'https://s.test/r/x/?count=50&after=t3_2b')).toBe(true);
    expect(later(r1, r2, r2, 'https://s.test/r/x/?count=26&before=t3_0z')).toBe(false);
    expect(later(r1, r2, r2, r1)).toBe(false);
    // Another category's list, rerun: its own cursor, on its own path.
    const boots = 'https://s.test/r/y/?count=25&after=t3_9c';
    expect(later(r1, r2, boots, 'https://s.test/r/y/?count=50&after=t3_9d')).toBe(true);
    expect(later(r1, r2, boots, 'https://s.test/r/x/?count=50&after=t3_2b')).toBe(false);
    // The same cursor with another sort: another list.
    const s1 = 'https://s.test/c?after=x81&sort=new';
    const s2 = 'https://s.test/c?after=k02&sort=new';
    expect(later(s1, s2, s2, 'https://s.test/c?after=q55&sort=old')).toBe(false);
  });

  it('is a page on where the pager moved two numbers at once: one of them grows', () => {
    // Hacker News's shape: page 1 bare, then an id that counts down and an item count.
    const [h1, h2] = ['https://s.test/jobs', 'https://s.test/jobs?next=47049744&n=31'];
    expect(later(h1, h2, h2, 'https://s.test/jobs?next=47040012&n=61')).toBe(true);
    expect(later(h1, h2, h2, h1)).toBe(false);
    expect(later(h1, h2, h2, h2)).toBe(false);
    expect(later(h1, h2, h2, 'https://s.test/jobs?next=47040012&n=31')).toBe(false);
    expect(later(h1, h2, h2, 'https://s.test/jobs?next=47040012&n=61&sort=new')).toBe(false);
    // A page number and an offset moved together: forward on, never back.
    const [q1, q2] = ['https://s.test/q?p=1&start=0', 'https://s.test/q?p=2&start=20'];
    const q3 = 'https://s.test/q?p=3&start=40';
    expect(later(q1, q2, q2, q3)).toBe(true);
    expect(later(q1, q2, q3, q2)).toBe(false);
  });

  it("is a page on where a bare first page's pager wrote its settings too", () => {
    // /c, then ?page=2&sort=1: either number may be the page's; page 2's next moves one.
    const [c, c2] = ['https://s.test/c', 'https://s.test/c?page=2&sort=1'];
    expect(later(c, c2, c2, 'https://s.test/c?page=3&sort=1')).toBe(true);
    expect(later(c, c2, 'https://s.test/d?page=2&sort=1', 'https://s.test/d?page=3&sort=1')).toBe(
      true,
    );
    expect(later(c, c2, c2, 'https://s.test/c?page=1&sort=1')).toBe(false);
    expect(later(c, c2, c2, c2)).toBe(false);
    expect(later(c, c2, c2, 'https://s.test/c?page=3&sort=price')).toBe(false);
    // The number in a path, the setting in the query.
    const [p, pp2] = ['https://s.test/c/shoes/', 'https://s.test/c/shoes/page/2/?per=24'];
    expect(later(p, pp2, pp2, 'https://s.test/c/shoes/page/3/?per=24')).toBe(true);
    // A number inside a parameter's name is no page number (x1_page names the pager).
    const [x, x2] = ['https://s.test/blog', 'https://s.test/blog?x1_page=2'];
    expect(later(x, x2, x2, 'https://s.test/blog?x1_page=3')).toBe(true);
    expect(later(x, x2, x2, 'https://s.test/blog?x2_page=2')).toBe(false);
  });

  it('is none for an id of more than 9 digits moved', () => {
    const item = 'https://s.test/itm/276702815108?page=2';
    expect(later(p1, p2, item, 'https://s.test/itm/397675477953?page=2')).toBe(false);
  });
});

describe('leadsOn', () => {
  const here = 'https://shop.test/c/?page=2&sort=new';
  const move = pagerMoveOf(
    'https://shop.test/c/?page=1&sort=new',
    'https://shop.test/c/?page=2&sort=new',
  );
  // As the page reader answers it (in the worker pool, in the server), in the parse of the read.
  const leadsOnHtml = (html: string, by: typeof move) =>
    readPage({ html, cssSelector: null, url: null, replay: null, onward: { url: here, move: by } })
      .onward ?? null;

  it('finds a link to the next page, however it is written', () => {
    const html = '<p><a href="?sort=new&amp;page=3" class="more">More products</a></p>';
    expect(leadsOnHtml(html, move)).toMatch(/page=3/);
    expect(leadsOnHtml(`<a href='/c/?page=3&#38;sort=new'>»</a>`, move)).toMatch(/page=3/);
  });

  it('finds a link the page marks rel="next", with no next URL known', () => {
    expect(leadsOnHtml('<head><link rel="next" href="/c/p/9"></head>', null)).toMatch(/p\/9/);
    expect(leadsOnHtml('<a rel="nofollow next" href="/x">Onward</a>', null)).toMatch(/\/x/);
  });

  it('judges no link past 64 numbers or parameters, but still reads its rel="next"', () => {
    const many = Array.from({ length: 64 }, (_, k) => `f${k}=x`).join('&');
    expect(leadsOnHtml(`<a href="?sort=new&amp;page=3&amp;${many}">Next</a>`, move)).toBeNull();
    const numbers = `/c/${'1-'.repeat(65)}/?page=3&sort=new`;
    expect(leadsOnHtml(`<a href="${numbers}">Next</a>`, move)).toBeNull();
    expect(leadsOnHtml(`<a rel="next" href="?page=3&amp;${many}">Next</a>`, move)).toMatch(/f63/);
  });

  it('finds nothing on the last page', () => {
    const last = `<nav><a href="/">Home</a> <a href="?page=1&sort=new">Previous</a>
      <a href="?page=3&sort=new" aria-disabled="true">Next</a></nav>
      <!-- <a href="?page=3&sort=new">Next</a> -->
      <script>const next = '<a href="?page=3&sort=new">';</script><a href="javascript:next()" rel="next">`;
    expect(leadsOnHtml(last, move)).toBeNull();
    expect(leadsOnHtml('', move)).toBeNull();
  });
});
