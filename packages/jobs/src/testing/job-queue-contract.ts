/* eslint-disable max-lines-per-function -- a contract suite is one describe, as a test file is */
// The job port's contract, written once and run against every adapter (embedded on libSQL here;
// BullMQ on a redis-server the suite starts; the embedded one on MongoDB wherever MONGODB_URI
// is set). Each "process" is a JobQueue opened on the same backend.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentJobError, type JobQueue, type RunningJob } from '../port';

export interface JobQueueHarness {
  /** A JobQueue as one process opens it; every one of a harness shares the backend. */
  open(options?: { leaseMs?: number }): Promise<JobQueue>;
  /**
   * The process holding `queue` dies: it renews nothing, finishes nothing and takes nothing
   * more, as after SIGKILL. Its handlers' signals are aborted (a real SIGKILL ends them; here
   * they may go on running, and whatever they return is lost).
   */
  kill(queue: JobQueue): Promise<void>;
  cleanup(): Promise<void>;
}

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

export function runJobQueueContract(name: string, makeHarness: () => Promise<JobQueueHarness>) {
  describe(`job queue contract: ${name}`, () => {
    let harness: JobQueueHarness;
    const opened: JobQueue[] = [];
    const open = async (options?: { leaseMs?: number }) => {
      const queue = await harness.open(options);
      opened.push(queue);
      return queue;
    };
    // A queue name per test: tests never see each other's jobs on a shared backend.
    const fresh = () => `q-${randomUUID().slice(0, 8)}`;
    const tenant = () => `t-${randomUUID().slice(0, 8)}`;

    beforeAll(async () => {
      harness = await makeHarness();
    });
    afterAll(async () => {
      await Promise.all(opened.map((q) => q.close().catch(() => undefined)));
      await harness.cleanup();
    });

    it('runs an added job once, with its data, and says it completed', async () => {
      const jobs = await open();
      const queue = fresh();
      const tenantId = tenant();
      const seen: RunningJob<{ url: string }>[] = [];
      jobs.work<{ url: string }>(queue, async (job) => void seen.push(job), { concurrency: 2 });
      await jobs.add({ queue, id: 'job-1', tenantId, data: { url: 'https://a.example/' } });
      await until(async () => (await jobs.state(tenantId, queue, 'job-1'))?.status === 'completed');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        queue,
        id: 'job-1',
        tenantId,
        data: { url: 'https://a.example/' },
        attempt: 1,
        maxAttempts: 3,
      });
      // Added again, in any state: nothing runs twice.
      await jobs.add({ queue, id: 'job-1', tenantId, data: { url: 'https://b.example/' } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen).toHaveLength(1);
      expect(await jobs.state(tenantId, queue, 'job-1')).toMatchObject({
        status: 'completed',
        attempts: 1,
        error: null,
      });
    });

    it('runs each of 30 jobs exactly once across three processes added by all three', async () => {
      const processes = [await open(), await open(), await open()];
      const queue = fresh();
      const tenantId = tenant();
      const runs = new Map<string, number>();
      for (const jobs of processes) {
        jobs.work(
          queue,
          async (job) => {
            runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
            await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
          },
          { concurrency: 3 },
        );
      }
      const ids = Array.from({ length: 30 }, (_, i) => `job-${i}`);
      // Every process adds every job, as three processes resuming the same work do.
      await Promise.all(
        processes.flatMap((jobs) => ids.map((id) => jobs.add({ queue, id, tenantId, data: {} }))),
      );
      await until(async () => {
        const [first] = processes;
        const states = await Promise.all(ids.map((id) => first?.state(tenantId, queue, id)));
        return states.every((s) => s?.status === 'completed');
      }, 20_000);
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
      expect(runs.size).toBe(30);
    });

    it('retries a failed attempt after its backoff and completes', async () => {
      const jobs = await open();
      const queue = fresh();
      const tenantId = tenant();
      const attempts: { attempt: number; at: number }[] = [];
      jobs.work(
        queue,
        async (job) => {
          attempts.push({ attempt: job.attempt, at: Date.now() });
          if (job.attempt === 1) throw new Error('the site answered 503');
        },
        { concurrency: 1 },
      );
      await jobs.add({ queue, id: 'flaky', tenantId, data: {}, backoffMs: 400 });
      await until(async () => (await jobs.state(tenantId, queue, 'flaky'))?.status === 'completed');
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
      expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(350);
      expect(await jobs.state(tenantId, queue, 'flaky')).toMatchObject({ attempts: 2 });
    });

    it('fails a job for good after its last attempt, tells onFailed once, and retries it on demand', async () => {
      const jobs = await open();
      const queue = fresh();
      const tenantId = tenant();
      let healthy = false;
      const failed: { id: string; error: string | null; data: unknown }[] = [];
      jobs.work(
        queue,
        async () => {
          if (!healthy) throw new Error('disk full');
        },
        {
          concurrency: 1,
          onFailed: (job) => void failed.push({ id: job.id, error: job.error, data: job.data }),
        },
      );
      await jobs.add({ queue, id: 'doomed', tenantId, data: { n: 1 }, attempts: 2, backoffMs: 50 });
      await until(async () => (await jobs.state(tenantId, queue, 'doomed'))?.status === 'failed');
      expect(await jobs.state(tenantId, queue, 'doomed')).toMatchObject({
        status: 'failed',
        attempts: 2,
        maxAttempts: 2,
        error: 'disk full',
      });
      await until(() => failed.length === 1);
      expect(failed).toEqual([{ id: 'doomed', error: 'disk full', data: { n: 1 } }]);

      healthy = true;
      expect(await jobs.retry(tenantId, queue, 'doomed')).toBe(true);
      await until(
        async () => (await jobs.state(tenantId, queue, 'doomed'))?.status === 'completed',
      );
      expect(await jobs.retry(tenantId, queue, 'doomed')).toBe(false);
      expect(failed).toHaveLength(1);
    });

    it('fails at once on a PermanentJobError', async () => {
      const jobs = await open();
      const queue = fresh();
      const tenantId = tenant();
      let calls = 0;
      jobs.work(
        queue,
        async () => {
          calls++;
          throw new PermanentJobError('the URL is not allowed');
        },
        { concurrency: 1 },
      );
      await jobs.add({ queue, id: 'refused', tenantId, data: {}, backoffMs: 50 });
      await until(async () => (await jobs.state(tenantId, queue, 'refused'))?.status === 'failed');
      expect(calls).toBe(1);
      expect(await jobs.state(tenantId, queue, 'refused')).toMatchObject({
        attempts: 1,
        error: 'the URL is not allowed',
      });
    });

    it('hands the job of a process that died to another within one lease', async () => {
      const leaseMs = 1_500;
      const dying = await open({ leaseMs });
      const survivor = await open({ leaseMs });
      const queue = fresh();
      const tenantId = tenant();
      const started: { on: string; attempt: number }[] = [];
      let dyingSignal: AbortSignal | undefined;
      dying.work(
        queue,
        async (job) => {
          started.push({ on: 'dying', attempt: job.attempt });
          dyingSignal = job.signal;
          await new Promise(() => {}); // hangs: the process will be killed meanwhile
        },
        { concurrency: 1 },
      );
      await dying.add({ queue, id: 'crawl', tenantId, data: { from: 'frontier' } });
      await until(() => started.length === 1);
      const killedAt = Date.now();
      await harness.kill(dying);
      survivor.work(
        queue,
        async (job) => {
          started.push({ on: 'survivor', attempt: job.attempt });
        },
        { concurrency: 1 },
      );
      await until(
        async () => (await survivor.state(tenantId, queue, 'crawl'))?.status === 'completed',
        leaseMs * 6 + 5_000,
      );
      expect(started).toEqual([
        { on: 'dying', attempt: 1 },
        { on: 'survivor', attempt: 2 },
      ]);
      expect(Date.now() - killedAt).toBeLessThan(leaseMs * 6 + 5_000);
      expect(dyingSignal?.aborted ?? true).toBe(true);
    });

    it('lets a tenant see and retry only its own jobs', async () => {
      const jobs = await open();
      const queue = fresh();
      const owner = tenant();
      jobs.work(queue, async () => Promise.reject(new PermanentJobError('no')), {
        concurrency: 1,
      });
      await jobs.add({ queue, id: 'private', tenantId: owner, data: {} });
      await until(async () => (await jobs.state(owner, queue, 'private'))?.status === 'failed');
      expect(await jobs.state(tenant(), queue, 'private')).toBeNull();
      expect(await jobs.retry(tenant(), queue, 'private')).toBe(false);
      expect(await jobs.state(owner, queue, 'unknown')).toBeNull();
    });

    it('aborts running handlers on close and waits for them', async () => {
      const jobs = await open();
      const queue = fresh();
      const tenantId = tenant();
      let started = false;
      let stopped = false;
      jobs.work(
        queue,
        async (job) => {
          started = true;
          await new Promise<void>((resolve) =>
            job.signal.addEventListener('abort', () => resolve(), { once: true }),
          );
          await new Promise((resolve) => setTimeout(resolve, 50));
          stopped = true;
        },
        { concurrency: 1 },
      );
      await jobs.add({ queue, id: 'long', tenantId, data: {} });
      await until(() => started);
      await jobs.close();
      expect(stopped).toBe(true);
      // Unfinished and released: another process (or this one, restarted) takes it up at once,
      // not a lease later.
      const next = await open();
      expect((await next.state(tenantId, queue, 'long'))?.status).not.toBe('completed');
      const resumed: number[] = [];
      next.work(queue, async (job) => void resumed.push(job.attempt), { concurrency: 1 });
      await until(async () => (await next.state(tenantId, queue, 'long'))?.status === 'completed');
      expect(resumed).toHaveLength(1);
    });
  });
}
