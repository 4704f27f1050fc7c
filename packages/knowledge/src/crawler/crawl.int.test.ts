// The crawler against the real demo docs site (in-process, on loopback, behind a counting
// proxy) with jobs persisted in the real store (libSQL in memory). allowPrivateNetwork is on
// because the site under test is local; network-guard.int.test.ts covers the default refusals.
// eslint-disable-next-line no-restricted-imports -- test-only: the site under crawl is the demo app; no runtime code imports it.
import { DOCS_PAGES, DOCS_SITEMAP_PAGES, DOCS_TRAPS, startDemoSites } from '@tandem/demo-sites';
// eslint-disable-next-line no-restricted-imports -- see above.
import type { DemoSites } from '@tandem/demo-sites';
import { createStore } from '@tandem/store';
import type { CrawlStrategy, KnowledgeJob, Store } from '@tandem/store';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCrawl } from './crawl';
import { startCountingProxy } from './testing/counting-proxy';
import type { CountingProxy } from './testing/counting-proxy';
import type { CrawlDeps, CrawledPage, CrawlOptions } from './types';

let sites: DemoSites;
let proxy: CountingProxy;
let store: Store;
let tenantId: string;

beforeAll(async () => {
  sites = await startDemoSites();
  proxy = await startCountingProxy(sites.url);
  store = await createStore({ libsqlUrl: ':memory:' });
  tenantId = (await store.tenants.create({ name: 'crawler tests' })).id;
});
afterAll(async () => {
  await proxy?.close();
  await sites?.close();
});
beforeEach(() => proxy.reset());

const FAST: CrawlOptions = { allowPrivateNetwork: true, delayMs: 0 };
const at = (path: string) => `${proxy.url}${path}`;
const pathOf = (url: string) => new URL(url).pathname;

async function newJob(
  strategy: CrawlStrategy,
  path: string,
  limits: { maxPages?: number; maxDepth?: number } = {},
): Promise<KnowledgeJob> {
  return store.knowledgeJobs.create(tenantId, {
    url: at(path),
    strategy,
    maxPages: limits.maxPages ?? 100,
    maxDepth: limits.maxDepth ?? 3,
    domain: '127.0.0.1',
  });
}

interface Run {
  job: KnowledgeJob;
  pages: CrawledPage[];
}

async function crawl(
  job: KnowledgeJob,
  options: CrawlOptions = FAST,
  extra: Partial<CrawlDeps> = {},
): Promise<Run> {
  const pages: CrawledPage[] = [];
  const result = await runCrawl(
    job,
    {
      jobs: store.knowledgeJobs,
      onPage: async (page) => {
        pages.push(page);
        return 'ingested';
      },
      ...extra,
    },
    options,
  );
  return { job: result, pages };
}

/** Hits on pages, leaving out robots.txt and sitemaps (read again by every run, by design). */
function pageHits(): Map<string, number> {
  const hits = proxy.hits();
  for (const path of hits.keys()) {
    if (path === '/robots.txt' || path.endsWith('sitemap.xml')) hits.delete(path);
  }
  return hits;
}

/** Everything a spider of the whole docs site fetches from getting-started. */
const SPIDER_PAGES = Object.values(DOCS_PAGES).filter(
  (page) => page !== DOCS_PAGES.internalRunbook,
);

describe('sitemap strategy', () => {
  it('crawls exactly the pages the sitemap lists, through robots.txt and a sitemap index', async () => {
    const { job, pages } = await crawl(await newJob('sitemap', DOCS_PAGES.index));
    expect(job.status).toBe('completed');
    expect(pages.map((page) => pathOf(page.url)).sort()).toEqual([...DOCS_SITEMAP_PAGES].sort());
    expect(job.progress).toMatchObject({ discovered: 12, fetched: 12, ingested: 12, failed: 0 });
    expect(proxy.hits().get('/robots.txt')).toBe(1);
    expect(proxy.hits().get('/sitemap.xml')).toBe(1);
    expect(proxy.hits().get('/docs/sitemap.xml')).toBe(1);
    expect(pageHits().has(DOCS_PAGES.sandbox)).toBe(false);
    const webhooks = pages.find((page) => pathOf(page.url) === DOCS_PAGES.webhooks);
    expect(webhooks).toMatchObject({
      status: 200,
      contentType: 'text/html',
      charset: 'utf-8',
      depth: 0,
      title: 'Webhooks · Tandem Health Developer Docs',
      truncated: false,
    });
    expect(new TextDecoder().decode(webhooks?.body)).toContain('HMAC-SHA256');
  });
});

describe('spider strategy', () => {
  it('follows links, skips what robots.txt disallows, records the 404 and the loop', async () => {
    const start = await newJob('spider', DOCS_PAGES.gettingStarted, { maxDepth: 3 });
    const reported: KnowledgeJob[] = [];
    const { job, pages } = await crawl(start, FAST, { onProgress: (next) => reported.push(next) });
    // Every persisted change is reported, the last one being the finished job.
    expect(reported.at(-1)).toEqual(job);
    const fetchedSeen = reported.map((next) => next.progress.fetched);
    expect(fetchedSeen).toEqual([...fetchedSeen].sort((a, b) => a - b));
    expect(reported.length).toBeGreaterThan(job.progress.fetched);
    expect(job.status).toBe('completed');
    expect(pages.map((page) => pathOf(page.url)).sort()).toEqual([...SPIDER_PAGES].sort());
    // Found only by links: the sitemap leaves it out.
    expect(pages.some((page) => pathOf(page.url) === DOCS_PAGES.sandbox)).toBe(true);
    expect(pageHits().has(DOCS_PAGES.internalRunbook)).toBe(false);
    expect(job.visited).toContain(at(DOCS_PAGES.internalRunbook));
    expect(job.errors.map(({ url, message }) => [pathOf(url), message]).sort()).toEqual([
      [DOCS_TRAPS.loopA, 'redirect loop'],
      [DOCS_TRAPS.missing, 'HTTP 404'],
    ]);
    // Skipped: the staff runbook (robots.txt) and the JSON feed (not a document).
    expect(job.progress).toMatchObject({
      fetched: SPIDER_PAGES.length + 3,
      ingested: SPIDER_PAGES.length,
      failed: 2,
      skipped: 2,
    });
    expect(job.frontier).toEqual([]);
    expect(job.finishedAt).not.toBeNull();
    for (const [path, count] of pageHits()) expect(count, path).toBe(1);
  });

  it('stops at maxDepth', async () => {
    const depth0 = await crawl(await newJob('spider', DOCS_PAGES.gettingStarted, { maxDepth: 0 }));
    expect(depth0.pages.map((page) => pathOf(page.url))).toEqual([DOCS_PAGES.gettingStarted]);

    proxy.reset();
    const depth1 = await crawl(await newJob('spider', DOCS_PAGES.gettingStarted, { maxDepth: 1 }));
    const paths = depth1.pages.map((page) => pathOf(page.url));
    // The sidebar is one link away; the changelog's broken link and the FAQ's loop are two.
    expect(paths).toContain(DOCS_PAGES.webhooks);
    expect(pageHits().has(DOCS_TRAPS.missing)).toBe(false);
    expect(pageHits().has(DOCS_TRAPS.loopA)).toBe(false);
    expect(depth1.pages.every((page) => page.depth <= 1)).toBe(true);
  });

  it('never fetches more than maxPages pages', async () => {
    const { job, pages } = await crawl(
      await newJob('spider', DOCS_PAGES.gettingStarted, { maxPages: 5 }),
    );
    expect(job.status).toBe('completed');
    expect(job.progress.fetched).toBe(5);
    expect(pages).toHaveLength(5);
    expect([...pageHits().values()].reduce((sum, count) => sum + count, 0)).toBe(5);
  });
});

describe('single strategy', () => {
  it('fetches the one page and caps its body at maxPageBytes', async () => {
    const { job, pages } = await crawl(await newJob('single', DOCS_PAGES.billing), {
      ...FAST,
      maxPageBytes: 1000,
    });
    expect(job.status).toBe('completed');
    expect(pages).toHaveLength(1);
    expect(pages[0]?.body.byteLength).toBe(1000);
    expect(pages[0]?.truncated).toBe(true);
  });

  it('fails the job when the start page is missing', async () => {
    const { job } = await crawl(await newJob('single', DOCS_TRAPS.missing));
    expect(job.status).toBe('failed');
    expect(job.error).toBe('HTTP 404');
  });
});

describe('resume and cancel', () => {
  it('resumes after a shutdown without fetching any URL twice', async () => {
    const whole = await crawl(await newJob('spider', DOCS_PAGES.gettingStarted));
    const everything = [...whole.job.visited].sort();

    proxy.reset();
    const shutdown = new AbortController();
    let seen = 0;
    const first = await crawl(await newJob('spider', DOCS_PAGES.gettingStarted), FAST, {
      onPage: async () => {
        seen += 1;
        if (seen === 4) shutdown.abort();
        return 'ingested';
      },
      signal: shutdown.signal,
    });
    expect(first.job.status).toBe('running');
    expect(first.job.frontier.length).toBeGreaterThan(0);
    const stored = await store.knowledgeJobs.get(tenantId, first.job.id);
    expect(stored?.frontier).toEqual(first.job.frontier);

    const second = await crawl(stored as KnowledgeJob);
    expect(second.job.status).toBe('completed');
    expect([...second.job.visited].sort()).toEqual(everything);
    expect(seen + second.pages.length).toBe(whole.pages.length);
    expect(second.job.progress).toEqual(whole.job.progress);
    for (const [path, count] of pageHits()) expect(count, path).toBe(1);
  });

  it('stops between pages once the job is cancelled in the store', async () => {
    const job = await newJob('spider', DOCS_PAGES.gettingStarted);
    const pages: string[] = [];
    const { job: result } = await crawl(
      job,
      { ...FAST, concurrency: 1 },
      {
        onPage: async (page) => {
          pages.push(page.url);
          // What the cancel route does, arriving while the second page is processed.
          if (pages.length === 2) {
            await store.knowledgeJobs.update(tenantId, job.id, { status: 'cancelled' });
          }
          return 'ingested';
        },
      },
    );
    expect(result.status).toBe('cancelled');
    expect(result.finishedAt).toBeNull();
    expect(result.progress.fetched).toBe(2);
    expect(pages).toHaveLength(2);
    expect(pageHits().size).toBe(2);
    // Cancelled is final: another run does nothing.
    proxy.reset();
    const again = await crawl(result);
    expect(again.job.status).toBe('cancelled');
    expect(proxy.requests).toHaveLength(0);
  });
});

describe('politeness', () => {
  it('keeps at most `concurrency` requests in flight to the host, spaced by delayMs', async () => {
    const slow = await startCountingProxy(sites.url, { latencyMs: 120 });
    try {
      const job = await store.knowledgeJobs.create(tenantId, {
        url: `${slow.url}${DOCS_PAGES.gettingStarted}`,
        strategy: 'spider',
        maxPages: 10,
        maxDepth: 1,
        domain: '127.0.0.1',
      });
      const { job: result } = await crawl(job, {
        allowPrivateNetwork: true,
        concurrency: 2,
        delayMs: 40,
      });
      expect(result.progress.fetched).toBe(10);
      // Latency 120 ms over a 40 ms spacing would allow 3 at once; the cap holds it at 2.
      expect(slow.maxInFlight).toBe(2);
      // Starts are spaced at the crawler; the server sees them shifted by connection set-up,
      // so judge the whole span (robots.txt + 10 pages = 10 gaps of 40 ms) with some slack.
      const starts = slow.requests.map((request) => request.startedAt).sort((a, b) => a - b);
      expect(starts).toHaveLength(11);
      expect((starts.at(-1) ?? 0) - (starts[0] ?? 0)).toBeGreaterThanOrEqual(10 * 40 - 20);
    } finally {
      await slow.close();
    }
  });
});
