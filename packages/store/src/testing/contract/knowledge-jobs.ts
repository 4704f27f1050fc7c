// Crawl jobs: defaults, ordering, patches and the cross-tenant resume list.
import { describe, expect, it } from 'vitest';
import type { KnowledgeJob, NewKnowledgeJob } from '../../port';
import { expectIso, newTenant, tick, uniq, useStore, type MakeStore } from './harness';

const crawl = (overrides: Partial<NewKnowledgeJob> = {}): NewKnowledgeJob => ({
  url: 'https://docs.test/',
  strategy: 'spider',
  maxPages: 50,
  maxDepth: 2,
  domain: 'docs.test',
  ...overrides,
});

const only = (jobs: KnowledgeJob[], wanted: KnowledgeJob[]): string[] => {
  const keep = new Set(wanted.map((j) => j.id));
  return jobs.filter((j) => keep.has(j.id)).map((j) => j.id);
};

export function knowledgeJobsContract(makeStore: MakeStore): void {
  describe('knowledge jobs', () => {
    const store = useStore(makeStore);

    it('creates jobs with defaults and gets them', async () => {
      const tenantId = await newTenant(store());
      const job = await store().knowledgeJobs.create(tenantId, crawl());
      expect(job).toEqual({
        id: job.id,
        tenantId,
        userId: null,
        kind: 'crawl',
        upload: null,
        url: 'https://docs.test/',
        strategy: 'spider',
        maxPages: 50,
        maxDepth: 2,
        domain: 'docs.test',
        status: 'queued',
        progress: { discovered: 0, fetched: 0, ingested: 0, unchanged: 0, skipped: 0, failed: 0 },
        frontier: [],
        visited: [],
        errors: [],
        error: null,
        createdAt: job.createdAt,
        updatedAt: job.createdAt,
        startedAt: null,
        finishedAt: null,
      });
      expectIso(job.createdAt);
      expect(await store().knowledgeJobs.get(tenantId, job.id)).toEqual(job);
      expect(await store().knowledgeJobs.get(tenantId, uniq('missing'))).toBeNull();

      const id = uniq('job');
      const seeded = await store().knowledgeJobs.create(
        tenantId,
        crawl({
          id,
          userId: 'user-1',
          strategy: 'sitemap',
          domain: '',
          frontier: [{ url: 'https://docs.test/sitemap.xml', depth: 0 }],
        }),
      );
      expect(seeded).toMatchObject({
        id,
        userId: 'user-1',
        strategy: 'sitemap',
        domain: '',
        frontier: [{ url: 'https://docs.test/sitemap.xml', depth: 0 }],
      });
      expect(await store().knowledgeJobs.get(tenantId, id)).toEqual(seeded);
    });

    it('lists newest first, by status and with a limit', async () => {
      const tenantId = await newTenant(store());
      const first = await store().knowledgeJobs.create(tenantId, crawl({ url: 'https://a.test/' }));
      await tick();
      const second = await store().knowledgeJobs.create(
        tenantId,
        crawl({ url: 'https://b.test/' }),
      );
      await tick();
      const third = await store().knowledgeJobs.create(tenantId, crawl({ url: 'https://c.test/' }));
      await store().knowledgeJobs.update(tenantId, second.id, { status: 'completed' });

      const all = await store().knowledgeJobs.list(tenantId);
      expect(all.map((j) => j.id)).toEqual([third.id, second.id, first.id]);
      expect((await store().knowledgeJobs.list(tenantId, { limit: 2 })).map((j) => j.id)).toEqual([
        third.id,
        second.id,
      ]);
      expect(
        (await store().knowledgeJobs.list(tenantId, { status: ['queued'] })).map((j) => j.id),
      ).toEqual([third.id, first.id]);
      expect(
        (await store().knowledgeJobs.list(tenantId, { status: ['completed', 'failed'] })).map(
          (j) => j.id,
        ),
      ).toEqual([second.id]);
      expect(await store().knowledgeJobs.list(tenantId, { status: [] })).toEqual([]);
    });

    it('applies patches and leaves absent fields alone', async () => {
      const tenantId = await newTenant(store());
      const job = await store().knowledgeJobs.create(tenantId, crawl());
      await tick();
      const startedAt = new Date().toISOString();
      const running = await store().knowledgeJobs.update(tenantId, job.id, {
        status: 'running',
        startedAt,
        progress: { discovered: 3, fetched: 1, ingested: 1, unchanged: 0, skipped: 0, failed: 0 },
        frontier: [
          { url: 'https://docs.test/b', depth: 1 },
          { url: 'https://docs.test/c', depth: 1 },
        ],
        visited: ['https://docs.test/'],
      });
      expect(running).toMatchObject({
        id: job.id,
        status: 'running',
        startedAt,
        finishedAt: null,
        url: job.url,
        progress: { discovered: 3, fetched: 1, ingested: 1 },
        frontier: [
          { url: 'https://docs.test/b', depth: 1 },
          { url: 'https://docs.test/c', depth: 1 },
        ],
        visited: ['https://docs.test/'],
        errors: [],
      });
      expect(running && running.updatedAt > job.updatedAt).toBe(true);
      expect(await store().knowledgeJobs.get(tenantId, job.id)).toEqual(running);

      const at = new Date().toISOString();
      const failed = await store().knowledgeJobs.update(tenantId, job.id, {
        status: 'failed',
        error: 'robots.txt refused everything',
        errors: [{ url: 'https://docs.test/b', message: 'HTTP 500', at }],
        frontier: [],
        finishedAt: at,
      });
      expect(failed).toMatchObject({
        status: 'failed',
        error: 'robots.txt refused everything',
        errors: [{ url: 'https://docs.test/b', message: 'HTTP 500', at }],
        frontier: [],
        visited: ['https://docs.test/'],
        startedAt,
        finishedAt: at,
      });
      const cleared = await store().knowledgeJobs.update(tenantId, job.id, { error: null });
      expect(cleared?.error).toBeNull();
      expect(cleared?.status).toBe('failed');
      expect(
        await store().knowledgeJobs.update(tenantId, uniq('missing'), { status: 'running' }),
      ).toBeNull();
    });

    it('lists unfinished jobs of every tenant, oldest first', async () => {
      const a = await newTenant(store());
      const b = await newTenant(store());
      const queued = await store().knowledgeJobs.create(a, crawl());
      await tick();
      const running = await store().knowledgeJobs.create(b, crawl());
      await store().knowledgeJobs.update(b, running.id, { status: 'running' });
      await tick();
      const done = await store().knowledgeJobs.create(a, crawl());
      await store().knowledgeJobs.update(a, done.id, { status: 'completed' });
      const cancelled = await store().knowledgeJobs.create(b, crawl());
      await store().knowledgeJobs.update(b, cancelled.id, { status: 'cancelled' });
      await tick();
      const later = await store().knowledgeJobs.create(a, crawl());

      const unfinished = await store().knowledgeJobs.listUnfinished();
      expect(only(unfinished, [queued, running, done, cancelled, later])).toEqual([
        queued.id,
        running.id,
        later.id,
      ]);
      const resumed = unfinished.find((j) => j.id === running.id);
      expect(resumed).toMatchObject({ tenantId: b, status: 'running' });
    });

    it('never overwrites a finished job through an unlessFinished update', async () => {
      const tenantId = await newTenant(store());
      const job = await store().knowledgeJobs.create(tenantId, crawl());
      const running = await store().knowledgeJobs.update(
        tenantId,
        job.id,
        { status: 'running' },
        { unlessFinished: true },
      );
      expect(running?.status).toBe('running');
      if (!running) throw new Error('the job vanished');
      const progress = { ...running.progress, ingested: 40 };
      await store().knowledgeJobs.update(tenantId, job.id, { status: 'completed', progress });
      // A worker that lost the job writes its stale counts and status: nothing changes.
      const stale = await store().knowledgeJobs.update(
        tenantId,
        job.id,
        { status: 'completed', progress: { ...progress, ingested: 27, unchanged: 13 } },
        { unlessFinished: true },
      );
      expect(stale).toMatchObject({ status: 'completed', progress: { ingested: 40 } });
      expect(await store().knowledgeJobs.get(tenantId, job.id)).toMatchObject({
        progress: { ingested: 40, unchanged: progress.unchanged },
      });
      expect(
        await store().knowledgeJobs.update(
          tenantId,
          uniq('missing'),
          { status: 'running' },
          { unlessFinished: true },
        ),
      ).toBeNull();
      // A cancelled job takes the counts of the pages under way, never another status.
      const cancelled = await store().knowledgeJobs.create(tenantId, crawl());
      await store().knowledgeJobs.update(tenantId, cancelled.id, { status: 'cancelled' });
      const counted = await store().knowledgeJobs.update(
        tenantId,
        cancelled.id,
        { progress: { ...progress, ingested: 2 } },
        { unlessFinished: true },
      );
      expect(counted).toMatchObject({ status: 'cancelled', progress: { ingested: 2 } });
      const revived = await store().knowledgeJobs.update(
        tenantId,
        cancelled.id,
        { status: 'completed', progress: { ...progress, ingested: 3 } },
        { unlessFinished: true },
      );
      expect(revived).toMatchObject({ status: 'cancelled', progress: { ingested: 2 } });
      // Another tenant's job is neither changed nor shown.
      const other = await newTenant(store());
      expect(
        await store().knowledgeJobs.update(other, job.id, { error: 'x' }, { unlessFinished: true }),
      ).toBeNull();
    });
  });
}
