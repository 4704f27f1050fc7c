import type { KnowledgeJob } from '@tandem/store';
import { describe, expect, it } from 'vitest';
import { CrawlState, MAX_JOB_ERRORS } from './crawl-state';
import type { FrontierItem } from './crawl-state';

function job(overrides: Partial<KnowledgeJob> = {}): KnowledgeJob {
  return {
    id: 'job-1',
    tenantId: 't-1',
    userId: null,
    kind: 'crawl',
    upload: null,
    url: 'https://a.example/',
    strategy: 'spider',
    maxPages: 10,
    maxDepth: 2,
    domain: 'a.example',
    status: 'queued',
    progress: { discovered: 0, fetched: 0, ingested: 0, unchanged: 0, skipped: 0, failed: 0 },
    frontier: [],
    visited: [],
    errors: [],
    error: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}

const a = (path: string) => `https://a.example${path}`;

function take(state: CrawlState): FrontierItem {
  const item = state.take();
  if (!item) throw new Error('frontier is empty');
  return item;
}

const frontierUrls = (state: CrawlState) => (state.patch().frontier ?? []).map((item) => item.url);

describe('CrawlState', () => {
  it('queues each URL once and counts it as discovered', () => {
    const state = new CrawlState(job(), 10);
    expect(state.isFresh).toBe(true);
    state.enqueue(a('/1'), 0);
    state.enqueue(a('/1'), 1);
    state.refuse(a('/private'));
    state.refuse(a('/private'));
    expect(state.isFresh).toBe(false);
    expect(state.progress).toMatchObject({ discovered: 2, skipped: 1 });
    expect(state.patch().frontier).toEqual([{ url: a('/1'), depth: 0 }]);
    expect(state.patch().visited).toEqual([a('/private')]);
  });

  it('keeps pages in flight at the front of the persisted frontier until finished', () => {
    const state = new CrawlState(job(), 10);
    state.enqueue(a('/1'), 0);
    state.enqueue(a('/2'), 1);
    const first = take(state);
    expect(first).toEqual({ url: a('/1'), depth: 0 });
    expect(frontierUrls(state)).toEqual([a('/1'), a('/2')]);
    expect(state.busy).toBe(true);
    state.countFetched(first);
    state.finish(first, [a('/1'), a('/1-moved')]);
    expect(frontierUrls(state)).toEqual([a('/2')]);
    expect(state.patch().visited).toEqual([a('/1'), a('/1-moved')]);
    expect(state.progress.fetched).toBe(1);
  });

  it('never lets the frontier outgrow what maxPages can still fetch', () => {
    const state = new CrawlState(job(), 3);
    for (let i = 0; i < 10; i += 1) state.enqueue(a(`/${i}`), 1);
    expect(state.patch().frontier).toHaveLength(3);
    for (let i = 0; i < 3; i += 1) {
      const item = take(state);
      state.countFetched(item);
      state.finish(item, []);
    }
    expect(state.budget).toBe(0);
    state.enqueue(a('/late'), 1);
    expect(state.take()).toBeUndefined();
  });

  it('gives the budget back for a page that was never requested', () => {
    const state = new CrawlState(job(), 1);
    state.enqueue(a('/1'), 0);
    const item = take(state);
    expect(state.budget).toBe(0);
    state.finish(item, []);
    expect(state.budget).toBe(1);
  });

  it('resumes from a stored job, skipping frontier entries visited meanwhile', () => {
    const state = new CrawlState(
      job({
        status: 'running',
        frontier: [
          { url: a('/done'), depth: 1 },
          { url: a('/next'), depth: 1 },
        ],
        visited: [a('/'), a('/done')],
        progress: { discovered: 3, fetched: 2, ingested: 2, unchanged: 0, skipped: 0, failed: 0 },
      }),
      10,
    );
    expect(state.isFresh).toBe(false);
    expect(state.has(a('/'))).toBe(true);
    expect(state.take()).toEqual({ url: a('/next'), depth: 1 });
    expect(state.budget).toBe(7);
  });

  it('puts a requeued page back first', () => {
    const state = new CrawlState(job(), 10);
    state.enqueue(a('/1'), 0);
    state.enqueue(a('/2'), 0);
    const item = take(state);
    state.requeue(item);
    expect(state.take()).toEqual(item);
  });

  it('keeps only the most recent errors', () => {
    const state = new CrawlState(job(), 10);
    for (let i = 0; i < MAX_JOB_ERRORS + 5; i += 1) state.addError(a(`/${i}`), `HTTP ${i}`);
    const { errors } = state.patch();
    expect(errors).toHaveLength(MAX_JOB_ERRORS);
    expect(errors?.[0]?.message).toBe('HTTP 5');
    expect(state.lastError).toBe(`HTTP ${MAX_JOB_ERRORS + 4}`);
  });

  it('wakes waiting workers when work arrives', async () => {
    const state = new CrawlState(job(), 10);
    const woken = state.changed();
    state.enqueue(a('/1'), 0);
    await expect(woken).resolves.toBeUndefined();
  });
});
