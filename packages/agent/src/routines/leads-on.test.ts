import { ROUTINE_EXTRACT, type Routine, type RoutineStep } from '@tandem/contracts';
import { readPage } from '@tandem/extraction';
import { describe, expect, it } from 'vitest';
import { lastReadPager, leadsOn, nextPageUrl, onwardUpdate, pagerStep } from './leads-on';
import { startRun } from './run';

const expectation = (url: string, urlChanged: boolean): RoutineStep['expect'] => ({
  tier: 1,
  urlChanged,
  url,
  domChanged: true,
  network: false,
  fieldsHold: true,
  text: [],
  reason: 'as seen',
});

const read = (url: string): RoutineStep => ({
  action: ROUTINE_EXTRACT,
  target: null,
  value: 'strategy-1',
  chained: false,
  expect: expectation(url, false),
  safety: 'safe',
  optional: false,
  page: { url },
});

/** Read the page at `from`, click Next page (to `to`), read that page. */
function pagedSteps(from: string, to: string, urlChanged = true): RoutineStep[] {
  const click: RoutineStep = {
    action: 'click',
    target: {
      fingerprint: 'link|Next page|f0|#0',
      locators: [{ by: 'role-name', role: 'link', name: 'Next page' }],
    },
    value: null,
    chained: false,
    expect: expectation(to, urlChanged),
    safety: 'safe',
    optional: false,
    page: { url: from },
  };
  return [read(from), click, read(to)];
}

const next = (from: string, to: string, here: string) =>
  nextPageUrl(pagedSteps(from, to), 1, here)?.href ?? null;

describe('pagerStep', () => {
  it('is the element clicked between two reads, and none without one', () => {
    const steps = pagedSteps('https://shop.test/c?page=1', 'https://shop.test/c?page=2');
    expect(pagerStep(steps)).toBe(1);
    expect(pagerStep([read('https://shop.test/c')])).toBe(-1);
  });
});

describe('nextPageUrl', () => {
  const p1 = 'https://shop.test/c/?page=1&sort=new';
  const p2 = 'https://shop.test/c/?page=2&sort=new';

  it('advances the number the first run’s pager advanced, from this page', () => {
    expect(next(p1, p2, p2)).toBe('https://shop.test/c/?page=3&sort=new');
    expect(next(p1, p2, p1)).toBe(p2);
    expect(
      next('https://s.test/c?start=0', 'https://s.test/c?start=20', 'https://s.test/c?start=40'),
    ).toBe('https://s.test/c?start=60');
    expect(
      next('https://s.test/c/page/1/', 'https://s.test/c/page/2/', 'https://s.test/c/page/2/'),
    ).toBe('https://s.test/c/page/3/');
    // No number on the first page: only that page's next one is known.
    expect(next('https://s.test/c', 'https://s.test/c?page=2', 'https://s.test/c')).toBe(
      'https://s.test/c?page=2',
    );
    expect(
      next('https://s.test/c', 'https://s.test/c?page=2', 'https://s.test/c?page=2'),
    ).toBeNull();
  });

  it('is none for a cursor it cannot carry over, or a pager that did not change the URL', () => {
    const [a, b] = ['https://s.test/c?after=x81', 'https://s.test/c?after=k02'];
    expect(next(a, b, a)).toBe(b);
    expect(next(a, b, b)).toBeNull();
    expect(nextPageUrl(pagedSteps(p1, p1, false), 1, p1)).toBeNull();
    expect(next(p1, p2, 'https://other.test/c/?page=2&sort=new')).toBeNull();
  });
});

/** The links as the extraction's page reader lists them (in the worker pool, in the server). */
const linksIn = (html: string) =>
  readPage({ html, cssSelector: null, url: null, replay: null, links: true }).links ?? [];

describe('leadsOn', () => {
  const here = 'https://shop.test/c/?page=2&sort=new';
  const to = new URL('https://shop.test/c/?page=3&sort=new');
  const leadsOnHtml = (html: string, next: URL | null) => leadsOn(linksIn(html), here, next);

  it('finds a link to the next page, however it is written', () => {
    const html = '<p><a href="?sort=new&amp;page=3" class="more">More products</a></p>';
    expect(leadsOnHtml(html, to)).toMatch(/page=3/);
    expect(leadsOnHtml(`<a href='/c/?page=3&#38;sort=new'>»</a>`, to)).toMatch(/page=3/);
  });

  it('finds a link the page marks rel="next", with no next URL known', () => {
    expect(leadsOnHtml('<head><link rel="next" href="/c/p/9"></head>', null)).toMatch(/p\/9/);
    expect(leadsOnHtml('<a rel="nofollow next" href="/x">Onward</a>', null)).toMatch(/\/x/);
  });

  it('finds nothing on the last page', () => {
    const last = `<nav><a href="/">Home</a> <a href="?page=1&sort=new">Previous</a>
      <a href="?page=3&sort=new" aria-disabled="true">Next</a></nav>
      <!-- <a href="?page=3&sort=new">Next</a> -->
      <script>const next = '<a href="?page=3&sort=new">';</script><a href="javascript:next()" rel="next">`;
    expect(leadsOnHtml(last, to)).toBeNull();
    expect(leadsOnHtml('', to)).toBeNull();
  });
});

describe('onwardUpdate', () => {
  const p1 = 'https://shop.test/c/?page=1';
  const p2 = 'https://shop.test/c/?page=2';
  const routine = (steps: RoutineStep[]) => ({ steps }) as unknown as Routine;
  const tokens = { input: 0, output: 0, saved: 0, calls: 0, costMicroUsd: 0 };
  const at = (steps: RoutineStep[], k: number) => ({
    routineRun: { ...startRun(routine(steps), {}, tokens), next: k, unit: { from: k, to: k } },
  });
  const links = linksIn('<a href="?page=3">More products</a>');

  it('keeps what leads on past the routine’s last read', () => {
    const update = onwardUpdate(at(pagedSteps(p1, p2), 2), p2, links);
    expect(update.routineRun).toMatchObject({ onward: expect.stringContaining('page=3') });
    const back = linksIn('<a href="?page=1">Back</a>');
    expect(onwardUpdate(at(pagedSteps(p1, p2), 2), p2, back)).toEqual({});
  });

  it('asks for the links only on the last read of a routine that paged', () => {
    expect(lastReadPager(at(pagedSteps(p1, p2), 2))).toBeGreaterThanOrEqual(0);
    expect(lastReadPager(at(pagedSteps(p1, p2), 0))).toBe(-1);
    expect(lastReadPager(at([read(p1)], 0))).toBe(-1);
    expect(lastReadPager({ routineRun: null })).toBe(-1);
  });

  it('is nothing for an earlier read, a routine that reads one page, or no links read', () => {
    expect(onwardUpdate(at(pagedSteps(p1, p2), 0), p1, links)).toEqual({});
    expect(onwardUpdate(at([read(p1)], 0), p1, links)).toEqual({});
    expect(onwardUpdate(at(pagedSteps(p1, p2), 2), p2, undefined)).toEqual({});
  });
});
