// The embedded job queue's rows: exactly-once adds and claims, leases that only their live owner
// can use, and the paths out of a dead worker's job (reclaim, abandon, retry). Times are passed
// as `now`, so a lease expires without waiting. Each test uses its own queue and tenants.
import { describe, expect, it } from 'vitest';
import type { NewQueuedJob, QueuedJob, Store } from '../../port';
import { expectIso, isoAt, uniq, useStore, type MakeStore } from './harness';

const LEASE = 30_000;

/** Queue names are random per test, so tenants can be too: the rows are keyed by queue. */
const tenant = (): string => uniq('tenant');

const job = (queue: string, overrides: Partial<NewQueuedJob> = {}): NewQueuedJob => ({
  id: uniq('job'),
  queue,
  tenantId: 'tenant-a',
  data: { url: 'https://a.test/', depth: 2 },
  maxAttempts: 3,
  backoffMs: 1_000,
  ...overrides,
});

/** `count` jobs added in order, one millisecond apart from `t0`, all due at `t0`. */
async function addJobs(
  store: Store,
  queue: string,
  t0: number,
  count: number,
  overrides: Partial<NewQueuedJob> = {},
): Promise<QueuedJob[]> {
  const jobs: QueuedJob[] = [];
  for (let i = 0; i < count; i += 1) {
    const added = await store.queuedJobs.add(
      job(queue, { runAt: isoAt(t0), ...overrides }),
      isoAt(t0 + i),
    );
    jobs.push(added.job);
  }
  return jobs;
}

export function queuedJobsContract(makeStore: MakeStore): void {
  describe('queued jobs: add and get', () => {
    const store = useStore(makeStore);

    it('adds a job waiting, untried and unowned, due now unless given', async () => {
      const queue = uniq('queue');
      const tenantId = tenant();
      const t0 = Date.now();
      const input = job(queue, { tenantId, data: { url: 'https://a.test/', tags: ['x', null] } });
      const { job: added, created } = await store().queuedJobs.add(input, isoAt(t0));
      expect(created).toBe(true);
      expect(added).toEqual({
        id: input.id,
        queue,
        tenantId,
        data: { url: 'https://a.test/', tags: ['x', null] },
        status: 'waiting',
        attempts: 0,
        maxAttempts: 3,
        backoffMs: 1_000,
        runAt: isoAt(t0),
        owner: null,
        leaseExpiresAt: null,
        error: null,
        createdAt: isoAt(t0),
        updatedAt: isoAt(t0),
        finishedAt: null,
      });
      expect(await store().queuedJobs.get(tenantId, queue, input.id)).toEqual(added);

      // A given runAt is normalised to UTC; `now` defaults to the current time.
      const later = await store().queuedJobs.add(
        job(queue, { tenantId, runAt: '2030-01-01T02:00:00+02:00' }),
      );
      expect(later.job.runAt).toBe('2030-01-01T00:00:00.000Z');
      expectIso(later.job.createdAt);
      expect(later.job.createdAt).toBe(later.job.updatedAt);
    });

    it('keeps data as JSON: nested values, strings, null', async () => {
      const queue = uniq('queue');
      const tenantId = tenant();
      for (const data of [{ a: { b: [1, 2.5, true] }, empty: {} }, 'plain', 7, null]) {
        const { job: added } = await store().queuedJobs.add(job(queue, { tenantId, data }));
        expect(added.data).toEqual(data);
        expect((await store().queuedJobs.get(tenantId, queue, added.id))?.data).toEqual(data);
      }
    });

    it('returns an existing (queue, id) unchanged, whatever its state', async () => {
      const queue = uniq('queue');
      const tenantId = tenant();
      const t0 = Date.now();
      const input = job(queue, { tenantId });
      const first = await store().queuedJobs.add(input, isoAt(t0));
      const again = await store().queuedJobs.add(
        { ...input, data: 'other', maxAttempts: 9, runAt: isoAt(t0 + 60_000) },
        isoAt(t0 + 5),
      );
      expect(again).toEqual({ job: first.job, created: false });

      const claimed = await store().queuedJobs.claim(queue, 'w1', LEASE, {}, isoAt(t0 + 10));
      expect(await store().queuedJobs.complete(queue, input.id, 'w1', isoAt(t0 + 20))).toBe(true);
      const done = await store().queuedJobs.get(tenantId, queue, input.id);
      expect(claimed?.id).toBe(input.id);
      expect(done?.status).toBe('completed');
      expect(await store().queuedJobs.add(input, isoAt(t0 + 30))).toEqual({
        job: done,
        created: false,
      });

      // The key is (queue, id): the same id in another queue is another job.
      const elsewhere = await store().queuedJobs.add({ ...input, queue: uniq('queue') });
      expect(elsewhere.created).toBe(true);
    });

    it('lets exactly one of concurrent adds of one id create it', async () => {
      const queue = uniq('queue');
      const input = job(queue, { tenantId: tenant() });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          store().queuedJobs.add({ ...input, data: { attempt: i } }),
        ),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      const winner = results.find((r) => r.created)?.job;
      for (const r of results) expect(r.job).toEqual(winner);
    });

    it("scopes get to the job's tenant", async () => {
      const queue = uniq('queue');
      const tenantId = tenant();
      const { job: added } = await store().queuedJobs.add(job(queue, { tenantId }));
      expect(await store().queuedJobs.get(tenant(), queue, added.id)).toBeNull();
      expect(await store().queuedJobs.get(tenantId, uniq('queue'), added.id)).toBeNull();
      expect(await store().queuedJobs.get(tenantId, queue, uniq('missing'))).toBeNull();
    });
  });

  describe('queued jobs: claim', () => {
    const store = useStore(makeStore);

    it('claims the earliest due job (runAt, then createdAt, then id) and never a future one', async () => {
      const queue = uniq('queue');
      const tenantId = tenant();
      const t0 = Date.now();
      const add = (id: string, runAt: number, createdAt: number) =>
        store().queuedJobs.add(job(queue, { id, tenantId, runAt: isoAt(runAt) }), isoAt(createdAt));
      // Due before the leases below expire, so no expired job competes with it.
      await add('job-future', t0 + 10_000, t0);
      await add('job-b', t0 + 1, t0 + 1);
      await add('job-a', t0 + 1, t0 + 1);
      await add('job-late-created', t0 + 1, t0 + 2);
      await add('job-first', t0, t0 + 3);
      await store().queuedJobs.add(job(uniq('queue'), { tenantId, runAt: isoAt(t0) }));

      const now = t0 + 100;
      const first = await store().queuedJobs.claim(queue, 'w1', LEASE, {}, isoAt(now));
      expect(first).toMatchObject({
        id: 'job-first',
        status: 'active',
        owner: 'w1',
        attempts: 1,
        leaseExpiresAt: isoAt(now + LEASE),
        updatedAt: isoAt(now),
        runAt: isoAt(t0),
        createdAt: isoAt(t0 + 3),
      });
      expect(await store().queuedJobs.get(tenantId, queue, 'job-first')).toEqual(first);
      const next: (string | undefined)[] = [];
      for (let i = 0; i < 4; i += 1) {
        next.push((await store().queuedJobs.claim(queue, 'w1', LEASE, {}, isoAt(now)))?.id);
      }
      expect(next).toEqual(['job-a', 'job-b', 'job-late-created', undefined]);
      expect((await store().queuedJobs.claim(queue, 'w2', LEASE, {}, isoAt(t0 + 10_000)))?.id).toBe(
        'job-future',
      );
      expect(await store().queuedJobs.claim(uniq('queue'), 'w1', LEASE)).toBeNull();
    });

    it('gives a dead worker’s job to another once its lease expires, while attempts are left', async () => {
      const queue = uniq('queue');
      const t0 = Date.now();
      const [added] = await addJobs(store(), queue, t0, 1, { maxAttempts: 2 });
      const id = added?.id ?? '';
      await store().queuedJobs.claim(queue, 'w1', LEASE, {}, isoAt(t0));
      // Live up to and including its expiry instant.
      expect(await store().queuedJobs.claim(queue, 'w2', LEASE, {}, isoAt(t0 + LEASE))).toBeNull();
      const taken = await store().queuedJobs.claim(queue, 'w2', LEASE, {}, isoAt(t0 + LEASE + 1));
      expect(taken).toMatchObject({
        id,
        owner: 'w2',
        attempts: 2,
        leaseExpiresAt: isoAt(t0 + 2 * LEASE + 1),
      });

      // The lost owner can neither renew, complete nor fail it; nothing changes.
      const later = isoAt(t0 + LEASE + 2);
      expect(await store().queuedJobs.renew(queue, id, 'w1', LEASE, later)).toBe(false);
      expect(await store().queuedJobs.complete(queue, id, 'w1', later)).toBe(false);
      expect(await store().queuedJobs.fail(queue, id, 'w1', 'late', null, later)).toBe(false);
      expect(await store().queuedJobs.release(queue, id, 'w1', later)).toBe(false);
      expect(await store().queuedJobs.get('tenant-a', queue, id)).toEqual(taken);
      expect(await store().queuedJobs.complete(queue, id, 'w2', later)).toBe(true);

      // Out of attempts, an expired job is no longer claimed (it is for abandon).
      const [last] = await addJobs(store(), queue, t0, 1, { maxAttempts: 1 });
      expect((await store().queuedJobs.claim(queue, 'w1', LEASE, {}, isoAt(t0)))?.id).toBe(
        last?.id,
      );
      expect(
        await store().queuedJobs.claim(queue, 'w2', LEASE, {}, isoAt(t0 + LEASE + 1)),
      ).toBeNull();
    });

    it('passes over a tenant with a live active job under onePerTenant', async () => {
      const queue = uniq('queue');
      const [x, y] = [tenant(), tenant()];
      const t0 = Date.now();
      const [x1, x2] = await addJobs(store(), queue, t0, 2, { tenantId: x });
      const [y1] = await addJobs(store(), queue, t0 + 10, 1, { tenantId: y });
      const claim = (owner: string, at: number, onePerTenant = true) =>
        store().queuedJobs.claim(queue, owner, LEASE, { onePerTenant }, isoAt(at));

      expect((await claim('w1', t0 + 20))?.id).toBe(x1?.id);
      expect((await claim('w2', t0 + 20))?.id).toBe(y1?.id);
      expect(await claim('w3', t0 + 20)).toBeNull();
      // Without the option the tenant's second job is runnable.
      expect((await claim('w3', t0 + 20, false))?.id).toBe(x2?.id);
    });

    it('frees a tenant under onePerTenant when its job finishes or its lease expires', async () => {
      const queue = uniq('queue');
      const x = tenant();
      const t0 = Date.now();
      const [x1, x2, x3] = await addJobs(store(), queue, t0, 3, { tenantId: x, maxAttempts: 1 });
      const claim = (owner: string, at: number) =>
        store().queuedJobs.claim(queue, owner, LEASE, { onePerTenant: true }, isoAt(at));

      expect((await claim('w1', t0 + 10))?.id).toBe(x1?.id);
      expect(await claim('w2', t0 + 10)).toBeNull();
      await store().queuedJobs.complete(queue, x1?.id ?? '', 'w1', isoAt(t0 + 11));
      expect((await claim('w2', t0 + 12))?.id).toBe(x2?.id);
      // w2 dies: once its lease has run out the tenant is free (x2, out of attempts, is skipped).
      expect(await claim('w3', t0 + 12 + LEASE)).toBeNull();
      expect((await claim('w3', t0 + 13 + LEASE))?.id).toBe(x3?.id);
    });

    it('never gives one job to two of many concurrent claimers', async () => {
      const queue = uniq('queue');
      const t0 = Date.now();
      const jobs = await addJobs(store(), queue, t0, 10);
      const owners = Array.from({ length: 20 }, (_, i) => `worker-${i}`);
      const claims = await Promise.all(
        owners.map((owner) => store().queuedJobs.claim(queue, owner, LEASE, {}, isoAt(t0 + 50))),
      );
      const won = claims.flatMap((c, i) => (c ? [{ owner: owners[i], job: c }] : []));
      expect(won).toHaveLength(10);
      expect(won.map((w) => w.job.id).sort()).toEqual(jobs.map((j) => j.id).sort());
      for (const { owner, job: claimed } of won) {
        expect(claimed).toMatchObject({ owner, attempts: 1, status: 'active' });
        expect((await store().queuedJobs.get('tenant-a', queue, claimed.id))?.owner).toBe(owner);
      }
    });
  });

  describe('queued jobs: renew, complete, fail, release', () => {
    const store = useStore(makeStore);

    /** One job of a fresh queue, claimed by `w1` at t0. */
    async function held(maxAttempts = 3) {
      const queue = uniq('queue');
      const t0 = Date.now();
      const [added] = await addJobs(store(), queue, t0, 1, { maxAttempts });
      const claimed = await store().queuedJobs.claim(queue, 'w1', LEASE, {}, isoAt(t0));
      if (!added || !claimed) throw new Error('contract: the job was not claimed');
      const get = () => store().queuedJobs.get('tenant-a', queue, added.id);
      return { queue, id: added.id, t0, claimed, get };
    }

    it('renews the owner’s live lease only', async () => {
      const { queue, id, t0, get } = await held();
      expect(await store().queuedJobs.renew(queue, id, 'w1', LEASE, isoAt(t0 + LEASE))).toBe(true);
      expect(await get()).toMatchObject({
        leaseExpiresAt: isoAt(t0 + 2 * LEASE),
        updatedAt: isoAt(t0 + LEASE),
        owner: 'w1',
        attempts: 1,
      });
      expect(await store().queuedJobs.renew(queue, id, 'w2', LEASE, isoAt(t0 + LEASE))).toBe(false);
      expect(
        await store().queuedJobs.renew(queue, id, 'w1', LEASE, isoAt(t0 + 2 * LEASE + 1)),
      ).toBe(false);
      expect(await store().queuedJobs.renew(queue, uniq('missing'), 'w1', LEASE)).toBe(false);
    });

    it('completes for the owner only, once', async () => {
      const { queue, id, t0, claimed, get } = await held();
      expect(await store().queuedJobs.complete(queue, id, 'w2', isoAt(t0 + 5))).toBe(false);
      expect(await get()).toEqual(claimed);
      expect(await store().queuedJobs.complete(queue, id, 'w1', isoAt(t0 + 5))).toBe(true);
      expect(await get()).toEqual({
        ...claimed,
        status: 'completed',
        owner: null,
        leaseExpiresAt: null,
        finishedAt: isoAt(t0 + 5),
        updatedAt: isoAt(t0 + 5),
      });
      expect(await store().queuedJobs.complete(queue, id, 'w1', isoAt(t0 + 6))).toBe(false);
      expect(await store().queuedJobs.fail(queue, id, 'w1', 'x', null, isoAt(t0 + 6))).toBe(false);
      expect(await store().queuedJobs.claim(queue, 'w2', LEASE, {}, isoAt(t0 + 7))).toBeNull();
    });

    it('finishes nothing once the owner’s lease has run out, even with no new owner', async () => {
      const { queue, id, t0, claimed, get } = await held();
      const late = isoAt(t0 + LEASE + 1);
      expect(await store().queuedJobs.complete(queue, id, 'w1', late)).toBe(false);
      expect(await store().queuedJobs.fail(queue, id, 'w1', 'x', null, late)).toBe(false);
      expect(await store().queuedJobs.fail(queue, id, 'w1', 'x', isoAt(t0 + LEASE + 9), late)).toBe(
        false,
      );
      expect(await store().queuedJobs.release(queue, id, 'w1', late)).toBe(false);
      expect(await store().queuedJobs.renew(queue, id, 'w1', LEASE, late)).toBe(false);
      expect(await get()).toEqual(claimed);
      // Up to its expiry instant the lease is still the owner's.
      expect(await store().queuedJobs.complete(queue, id, 'w1', isoAt(t0 + LEASE))).toBe(true);
    });

    it('fails into a backoff: waiting from retryAt with its error, then claimed again', async () => {
      const { queue, id, t0, get } = await held();
      const retryAt = t0 + 5_000;
      expect(
        await store().queuedJobs.fail(queue, id, 'w2', 'HTTP 500', isoAt(retryAt), isoAt(t0 + 5)),
      ).toBe(false);
      expect(
        await store().queuedJobs.fail(queue, id, 'w1', 'HTTP 500', isoAt(retryAt), isoAt(t0 + 5)),
      ).toBe(true);
      expect(await get()).toMatchObject({
        status: 'waiting',
        runAt: isoAt(retryAt),
        error: 'HTTP 500',
        owner: null,
        leaseExpiresAt: null,
        attempts: 1,
        finishedAt: null,
        updatedAt: isoAt(t0 + 5),
      });
      expect(await store().queuedJobs.claim(queue, 'w2', LEASE, {}, isoAt(retryAt - 1))).toBeNull();
      const again = await store().queuedJobs.claim(queue, 'w2', LEASE, {}, isoAt(retryAt));
      // The error stays while the next attempt runs.
      expect(again).toMatchObject({ id, owner: 'w2', attempts: 2, error: 'HTTP 500' });
    });

    it('fails for good without a retryAt', async () => {
      const { queue, id, t0, get } = await held();
      expect(await store().queuedJobs.fail(queue, id, 'w1', 'bad input', null, isoAt(t0 + 5))).toBe(
        true,
      );
      expect(await get()).toMatchObject({
        status: 'failed',
        error: 'bad input',
        owner: null,
        leaseExpiresAt: null,
        finishedAt: isoAt(t0 + 5),
        attempts: 1,
      });
      expect(await store().queuedJobs.claim(queue, 'w2', LEASE, {}, isoAt(t0 + 6))).toBeNull();
    });

    it('releases a job back to waiting, its attempt not counted', async () => {
      const { queue, id, t0, claimed, get } = await held(1);
      expect(await store().queuedJobs.release(queue, id, 'w2', isoAt(t0 + 5))).toBe(false);
      expect(await store().queuedJobs.release(queue, id, 'w1', isoAt(t0 + 5))).toBe(true);
      expect(await get()).toEqual({
        ...claimed,
        status: 'waiting',
        attempts: 0,
        owner: null,
        leaseExpiresAt: null,
        updatedAt: isoAt(t0 + 5),
      });
      expect(await store().queuedJobs.release(queue, id, 'w1', isoAt(t0 + 6))).toBe(false);
      // Its only attempt is still there to take, at once.
      expect(await store().queuedJobs.claim(queue, 'w2', LEASE, {}, isoAt(t0 + 6))).toMatchObject({
        id,
        owner: 'w2',
        attempts: 1,
      });
    });
  });

  describe('queued jobs: exhausted, abandon, retry', () => {
    const store = useStore(makeStore);

    it('lists active jobs whose lease expired with no attempt left, oldest first', async () => {
      const queue = uniq('queue');
      const t0 = Date.now();
      const [spent1, spent2, , live] = [
        ...(await addJobs(store(), queue, t0, 2, { maxAttempts: 1 })),
        ...(await addJobs(store(), queue, t0 + 10, 1, { maxAttempts: 2 })),
        ...(await addJobs(store(), queue, t0 + 20, 1, { maxAttempts: 1 })),
      ];
      for (const at of [t0 + 30, t0 + 30, t0 + 30]) {
        await store().queuedJobs.claim(queue, 'w1', LEASE, {}, isoAt(at));
      }
      // `live` is claimed later: its lease is still running when the others' have expired.
      expect((await store().queuedJobs.claim(queue, 'w2', LEASE, {}, isoAt(t0 + 1_000)))?.id).toBe(
        live?.id,
      );
      const now = isoAt(t0 + 31 + LEASE);
      const exhausted = await store().queuedJobs.listExhausted(queue, {}, now);
      expect(exhausted.map((j) => j.id)).toEqual([spent1?.id, spent2?.id]);
      expect(exhausted[0]).toMatchObject({ status: 'active', owner: 'w1', attempts: 1 });
      expect(
        (await store().queuedJobs.listExhausted(queue, { limit: 1 }, now)).map((j) => j.id),
      ).toEqual([spent1?.id]);
      expect(await store().queuedJobs.listExhausted(queue, {}, isoAt(t0 + 30 + LEASE))).toEqual([]);
      expect(await store().queuedJobs.listExhausted(uniq('queue'), {}, now)).toEqual([]);
    });

    it('abandons only an exhausted job, whoever held it', async () => {
      const queue = uniq('queue');
      const t0 = Date.now();
      const [spent, spare, waiting] = [
        ...(await addJobs(store(), queue, t0, 1, { maxAttempts: 1 })),
        ...(await addJobs(store(), queue, t0 + 10, 1, { maxAttempts: 2 })),
        ...(await addJobs(store(), queue, t0 + 20, 1, { maxAttempts: 1 })),
      ];
      await store().queuedJobs.claim(queue, 'w1', LEASE, {}, isoAt(t0 + 30));
      await store().queuedJobs.claim(queue, 'w1', LEASE, {}, isoAt(t0 + 30));
      const get = (id = '') => store().queuedJobs.get('tenant-a', queue, id);

      // Still live: not abandoned.
      expect(
        await store().queuedJobs.abandon(queue, spent?.id ?? '', 'dead', isoAt(t0 + 30 + LEASE)),
      ).toBe(false);
      const now = isoAt(t0 + 31 + LEASE);
      expect(await store().queuedJobs.abandon(queue, spare?.id ?? '', 'dead', now)).toBe(false);
      expect(await store().queuedJobs.abandon(queue, waiting?.id ?? '', 'dead', now)).toBe(false);
      expect(await store().queuedJobs.abandon(queue, uniq('missing'), 'dead', now)).toBe(false);
      expect((await get(spare?.id))?.status).toBe('active');
      expect((await get(waiting?.id))?.status).toBe('waiting');

      expect(await store().queuedJobs.abandon(queue, spent?.id ?? '', 'worker died', now)).toBe(
        true,
      );
      expect(await get(spent?.id)).toMatchObject({
        status: 'failed',
        error: 'worker died',
        owner: null,
        leaseExpiresAt: null,
        finishedAt: now,
        attempts: 1,
      });
      expect(await store().queuedJobs.abandon(queue, spent?.id ?? '', 'again', now)).toBe(false);
      expect(await store().queuedJobs.listExhausted(queue, {}, now)).toEqual([]);
    });

    it("retries a failed job of the caller's tenant: waiting now, attempts reset", async () => {
      const queue = uniq('queue');
      const tenantId = tenant();
      const t0 = Date.now();
      const [failed, completed] = await addJobs(store(), queue, t0, 2, { tenantId });
      const id = failed?.id ?? '';
      await store().queuedJobs.claim(queue, 'w1', LEASE, {}, isoAt(t0 + 10));
      await store().queuedJobs.claim(queue, 'w1', LEASE, {}, isoAt(t0 + 10));
      await store().queuedJobs.fail(queue, id, 'w1', 'bad input', null, isoAt(t0 + 20));
      await store().queuedJobs.complete(queue, completed?.id ?? '', 'w1', isoAt(t0 + 20));
      const before = await store().queuedJobs.get(tenantId, queue, id);

      expect(await store().queuedJobs.retry(tenant(), queue, id, isoAt(t0 + 30))).toBeNull();
      expect(await store().queuedJobs.get(tenantId, queue, id)).toEqual(before);
      expect(
        await store().queuedJobs.retry(tenantId, queue, completed?.id ?? '', isoAt(t0 + 30)),
      ).toBeNull();
      expect(await store().queuedJobs.retry(tenantId, queue, uniq('missing'))).toBeNull();

      const retried = await store().queuedJobs.retry(tenantId, queue, id, isoAt(t0 + 30));
      expect(retried).toEqual({
        ...before,
        status: 'waiting',
        attempts: 0,
        runAt: isoAt(t0 + 30),
        error: null,
        finishedAt: null,
        updatedAt: isoAt(t0 + 30),
      });
      expect(await store().queuedJobs.get(tenantId, queue, id)).toEqual(retried);
      expect(await store().queuedJobs.retry(tenantId, queue, id, isoAt(t0 + 31))).toBeNull();
      expect(await store().queuedJobs.claim(queue, 'w2', LEASE, {}, isoAt(t0 + 30))).toMatchObject({
        id,
        attempts: 1,
        owner: 'w2',
      });
    });
  });
}
