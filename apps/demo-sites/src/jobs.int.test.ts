// The job board in real Chromium: three pages of cards, the detail panel, and the traps an
// extraction must handle (repeated listings, a card without an id, salaries on some jobs).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JOB_BOARD, UNIDENTIFIED_JOB } from './jobs';
import type { Job } from './jobs';
import { DEMO_API, DEMO_PAGES } from './pages';
import { startDemoSites } from './server';
import type { DemoSites } from './server';
import { openBrowser } from './test/browser';
import type { BrowserFixture } from './test/browser';

let sites: DemoSites;
let fixture: BrowserFixture;

beforeAll(async () => {
  [sites, fixture] = await Promise.all([startDemoSites(), openBrowser()]);
});
afterAll(async () => {
  await fixture?.browser.close();
  await sites?.close();
});
beforeEach(() => {
  fixture.problems.length = 0;
});
afterEach(() => {
  expect(fixture.problems).toEqual([]);
});

interface Card {
  id: string | null;
  title: string;
  company: string;
  location: string;
  shownId: string | null;
  promoted: boolean;
}

/** What a reader of the page sees on each card. */
async function readCards(): Promise<Card[]> {
  const { page } = fixture;
  await page.locator('#job-list[aria-busy="false"]').waitFor();
  return page.locator('.job-card').evaluateAll((articles) =>
    articles.map((article) => {
      const el = article as HTMLElement;
      const textOf = (selector: string) => el.querySelector(selector)?.textContent?.trim() ?? null;
      return {
        id: el.dataset.jobId ?? null,
        title: textOf('h3 button') ?? '',
        company: textOf('.company') ?? '',
        location: textOf('.location') ?? '',
        shownId: textOf('.job-id'),
        promoted: el.querySelector('.badge') !== null,
      };
    }),
  );
}

const keyOf = (card: Pick<Card, 'id' | 'title' | 'company'>) =>
  card.id ?? `${card.title.toLowerCase()}@${card.company.toLowerCase()}`;

describe('job board', () => {
  it('lists 35 cards over 3 pages, reached by following "Next page"', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.jobs}`);
    const seen: Card[][] = [];
    for (;;) {
      seen.push(await readCards());
      const position = await page.locator('[aria-current="page"]').textContent();
      expect(position).toBe(`Page ${seen.length} of 3`);
      const next = page.getByRole('link', { name: 'Next page' });
      if ((await next.count()) === 0) break;
      await next.click();
      await page.waitForURL(`**/jobs/?page=${seen.length + 1}`);
    }
    expect(seen.map((cards) => cards.length)).toStrictEqual([12, 12, 11]);
    expect(await page.getByText('Last page').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Previous page' }).getAttribute('href')).toBe(
      '/jobs/?page=2',
    );

    const all = seen.flat();
    const keys = all.map(keyOf);
    expect(new Set(keys).size).toBe(32);
    expect(JOB_BOARD.uniqueJobs.map(keyOf)).toStrictEqual([...new Set(keys)]);
    // The same job (same id) on two pages, marked as promoted the second time.
    for (const id of ['J-1012', 'J-1022']) {
      const copies = all.filter((card) => card.id === id);
      expect(
        copies.map((card) => card.promoted),
        id,
      ).toStrictEqual([false, true]);
      expect(copies[0]).toStrictEqual({ ...copies[1], promoted: false });
    }
    // One listing has no id anywhere; only title@company tells its two copies apart.
    const unidentified = all.filter((card) => card.id === null);
    expect(unidentified).toHaveLength(2);
    expect(unidentified.every((card) => card.shownId === null && !card.promoted)).toBe(true);
    expect(keyOf(unidentified[0] as Card)).toBe('night shift nurse@riverside clinic');
    expect(
      all.filter((card) => card.id !== null).every((c) => c.shownId === `Job ID: ${c.id}`),
    ).toBe(true);
  });

  it('shows a job’s details when its card is clicked, salary only when the job has one', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.jobs}`);
    await readCards();
    const detail = page.locator('#job-detail');
    expect(await detail.isVisible()).toBe(false);

    const fields = () =>
      detail
        .locator('[data-field]')
        .evaluateAll((nodes) =>
          Object.fromEntries(
            nodes.map((node) => [(node as HTMLElement).dataset.field, node.textContent]),
          ),
        );
    const expected = (job: Job) => ({
      ...(job.id ? { jobId: job.id } : {}),
      location: job.location,
      ...(job.salary ? { salary: job.salary } : {}),
      employmentType: job.employmentType,
      description: job.description,
    });

    const withSalary = JOB_BOARD.pages[0]?.[0] as Job;
    const withoutSalary = JOB_BOARD.pages[0]?.[2] as Job;
    expect(withSalary.salary).not.toBeNull();
    expect(withoutSalary.salary).toBeNull();

    await page.getByRole('button', { name: withSalary.title }).click();
    expect(await detail.isVisible()).toBe(true);
    expect(await detail.getByRole('heading', { level: 2 }).textContent()).toBe(withSalary.title);
    expect(await fields()).toStrictEqual(expected(withSalary));
    expect(
      await page.getByRole('button', { name: withSalary.title }).getAttribute('aria-expanded'),
    ).toBe('true');

    // Clicking anywhere on another card switches the panel.
    await page.locator('.job-card', { hasText: withoutSalary.title }).locator('.company').click();
    expect(await fields()).toStrictEqual(expected(withoutSalary));
    expect(await detail.getByText('Salary').count()).toBe(0);

    await page.getByRole('button', { name: 'Close details' }).click();
    expect(await detail.isVisible()).toBe(false);
  });

  it('shows the unidentified job’s details without an id', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.jobsPage3}`);
    await readCards();
    await page.getByRole('button', { name: UNIDENTIFIED_JOB.title }).click();
    const detail = page.locator('#job-detail');
    expect(await detail.locator('[data-field="jobId"]').count()).toBe(0);
    expect(await detail.locator('[data-field="salary"]').textContent()).toBe('$42 per hour');
    expect(await detail.locator('[data-field="description"]').textContent()).toBe(
      UNIDENTIFIED_JOB.description,
    );
  });

  it('has some jobs with a salary and some without', () => {
    const salaries = JOB_BOARD.uniqueJobs.map((job) => job.salary);
    expect(salaries.filter((s) => s === null).length).toBeGreaterThanOrEqual(5);
    expect(salaries.filter((s) => s !== null).length).toBeGreaterThanOrEqual(15);
  });
});

describe('job board API', () => {
  it('answers each page as the board renders it, and 404 past the last one', async () => {
    for (let n = 1; n <= 3; n++) {
      const res = await fetch(`${sites.url}${DEMO_API.jobs}?page=${n}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toStrictEqual({
        page: n,
        pageCount: 3,
        jobs: JOB_BOARD.pages[n - 1],
      });
    }
    const first = await (await fetch(`${sites.url}${DEMO_API.jobs}`)).json();
    expect(first.page).toBe(1);
    for (const bad of ['4', '0', 'x', '-1']) {
      const res = await fetch(`${sites.url}${DEMO_API.jobs}?page=${bad}`);
      expect(res.status, bad).toBe(404);
      expect((await res.json()).error.code).toBe('NOT_FOUND');
    }
    const post = await fetch(`${sites.url}${DEMO_API.jobs}`, { method: 'POST' });
    expect(post.status).toBe(405);
  });
});
