// The job-queue contract on the Redis adapter (BullMQ), on a redis-server this suite starts and
// stops; each "process" is its own createRedisJobQueue (its own connections) on that server.
// Then what the contract leaves to each adapter and BullMQ makes worth checking: how fast a
// dead worker's job is taken over, that a dead or superseded worker's late return writes
// nothing, and how attempts are counted across takeovers and releases.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isJobQueueUnavailableError, type JobQueue } from './port';
import { createRedisJobQueue, haltRedisJobQueue } from './redis-queue';
import {
  redisServerInstalled,
  redisServerMissing,
  runJobQueueContract,
  startRedisServer,
  type JobQueueHarness,
  type RedisServer,
} from './testing';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(20);
  }
};

const fresh = () => `q-${randomUUID().slice(0, 8)}`;
const tenant = () => `t-${randomUUID().slice(0, 8)}`;

if (!redisServerInstalled()) {
  console.info(redisServerMissing('the Redis job-queue suite'));
  describe.skip('job queue: redis', () => {
    it('needs redis-server', () => undefined);
  });
} else {
  describe('job queue: redis', () => {
    let server: RedisServer;
    beforeAll(async () => {
      server = await startRedisServer();
    });
    afterAll(async () => {
      await server?.stop();
    });

    // A key prefix per harness: the suites never see each other's queues.
    const makeHarness = async (): Promise<JobQueueHarness & { prefix: string }> => {
      const prefix = `test-${randomUUID().slice(0, 8)}`;
      const opened: JobQueue[] = [];
      return {
        prefix,
        async open(options) {
          const queue = createRedisJobQueue({ url: server.url, prefix, ...options });
          opened.push(queue);
          return queue;
        },
        kill: haltRedisJobQueue,
        async cleanup() {
          await Promise.all(opened.map((queue) => queue.close().catch(() => undefined)));
        },
      };
    };

    runJobQueueContract('redis', makeHarness);

    describe('BullMQ specifics', () => {
      let harness: Awaited<ReturnType<typeof makeHarness>>;
      beforeAll(async () => {
        harness = await makeHarness();
      });
      afterAll(async () => {
        await harness.cleanup();
      });

      it("takes a killed process's job over within about one lease and drops its late return", async () => {
        const leaseMs = 1_000;
        const dying = await harness.open({ leaseMs });
        const survivor = await harness.open({ leaseMs });
        const queue = fresh();
        const tenantId = tenant();
        const runs: { on: string; attempt: number; at: number }[] = [];
        let returnLate = () => {};
        let returnedLate = false;
        dying.work(
          queue,
          async (job) => {
            runs.push({ on: 'dying', attempt: job.attempt, at: Date.now() });
            await new Promise<void>((resolve) => (returnLate = resolve));
            returnedLate = true;
          },
          { concurrency: 1 },
        );
        await dying.add({ queue, id: 'crawl', tenantId, data: {} });
        await until(() => runs.length === 1);
        let finish = () => {};
        survivor.work(
          queue,
          async (job) => {
            runs.push({ on: 'survivor', attempt: job.attempt, at: Date.now() });
            await new Promise<void>((resolve) => (finish = resolve));
          },
          { concurrency: 1 },
        );

        const killedAt = Date.now();
        await haltRedisJobQueue(dying);
        returnLate(); // the dead process's handler still returns, as if it had finished
        await until(() => returnedLate);
        await sleep(200);
        expect((await survivor.state(tenantId, queue, 'crawl'))?.status).not.toBe('completed');

        await until(() => runs.length === 2, leaseMs * 3);
        // The rest of the dead lock (at most a lease) and one stalled check (a quarter lease).
        expect((runs[1]?.at ?? Infinity) - killedAt).toBeLessThan(leaseMs * 1.25 + 500);
        expect(runs.map(({ on, attempt }) => ({ on, attempt }))).toEqual([
          { on: 'dying', attempt: 1 },
          { on: 'survivor', attempt: 2 },
        ]);
        // The survivor holds it: the late return completed nothing.
        expect((await survivor.state(tenantId, queue, 'crawl'))?.status).toBe('active');
        finish();
        await until(
          async () => (await survivor.state(tenantId, queue, 'crawl'))?.status === 'completed',
        );
        expect(await survivor.state(tenantId, queue, 'crawl')).toMatchObject({
          attempts: 2,
          error: null,
        });
      });

      it('aborts a worker that lost its lock, and its late return completes nothing', async () => {
        const leaseMs = 1_000;
        const first = await harness.open({ leaseMs });
        const second = await harness.open({ leaseMs });
        const queue = fresh();
        const tenantId = tenant();
        const runs: { on: string; attempt: number }[] = [];
        let firstSignal: AbortSignal | undefined;
        const work = (on: string) => async (job: { attempt: number; signal: AbortSignal }) => {
          runs.push({ on, attempt: job.attempt });
          if (runs.length > 1) return;
          firstSignal = job.signal;
          // Works until told to stop, then returns as if it had finished.
          await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
        };
        first.work(queue, work('first'), { concurrency: 1 });
        await first.add({ queue, id: 'crawl', tenantId, data: {} });
        await until(() => runs.length === 1);
        second.work(queue, work('second'), { concurrency: 1 });

        // The lock vanishes, as when the first process's event loop stalls past its lease.
        const redis = new Redis(server.url);
        try {
          const locks = await redis.keys(`${harness.prefix}:${queue}:*:lock`);
          expect(locks).toHaveLength(1);
          await redis.del(...locks);
        } finally {
          redis.disconnect();
        }
        await until(() => firstSignal?.aborted === true, leaseMs * 2);
        await until(
          async () => (await second.state(tenantId, queue, 'crawl'))?.status === 'completed',
        );
        expect(runs).toHaveLength(2);
        expect(runs[0]).toEqual({ on: 'first', attempt: 1 });
        expect(runs[1]).toMatchObject({ attempt: 2 });
      });

      it('releases running jobs on close without spending their attempt', async () => {
        const first = await harness.open(); // a 30 s lease: only a release can hand it on in time
        const queue = fresh();
        const tenantId = tenant();
        const attempts: number[] = [];
        first.work(
          queue,
          async (job) => {
            attempts.push(job.attempt);
            await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
          },
          { concurrency: 1 },
        );
        await first.add({ queue, id: 'long', tenantId, data: {} });
        await until(() => attempts.length === 1);
        const closedAt = Date.now();
        await first.close();
        expect(await harness.open().then((q) => q.state(tenantId, queue, 'long'))).toMatchObject({
          status: 'waiting',
          attempts: 0,
        });
        const next = await harness.open();
        next.work(queue, async (job) => void attempts.push(job.attempt), { concurrency: 1 });
        await until(
          async () => (await next.state(tenantId, queue, 'long'))?.status === 'completed',
        );
        expect(Date.now() - closedAt).toBeLessThan(5_000);
        expect(attempts).toEqual([1, 1]);
        expect(await next.state(tenantId, queue, 'long')).toMatchObject({ attempts: 1 });
      });

      it('fails a job for good when the worker of its last attempt dies, telling onFailed once', async () => {
        const leaseMs = 1_000;
        const dying = await harness.open({ leaseMs });
        const survivor = await harness.open({ leaseMs });
        const queue = fresh();
        const tenantId = tenant();
        let started = 0;
        dying.work(
          queue,
          async () => {
            started++;
            await new Promise(() => {});
          },
          { concurrency: 1 },
        );
        await dying.add({ queue, id: 'poison', tenantId, data: { n: 1 }, attempts: 1 });
        await until(() => started === 1);
        await haltRedisJobQueue(dying);
        const failed: { id: string; error: string | null; data: unknown }[] = [];
        survivor.work(queue, async () => void started++, {
          concurrency: 1,
          onFailed: (job) => void failed.push({ id: job.id, error: job.error, data: job.data }),
        });
        await until(
          async () => (await survivor.state(tenantId, queue, 'poison'))?.status === 'failed',
          leaseMs * 4,
        );
        expect(await survivor.state(tenantId, queue, 'poison')).toMatchObject({
          status: 'failed',
          attempts: 1,
          maxAttempts: 1,
          error: expect.stringMatching(/last attempt stopped/),
        });
        await until(() => failed.length === 1);
        expect(failed).toEqual([
          { id: 'poison', error: expect.stringMatching(/last attempt stopped/), data: { n: 1 } },
        ]);
        // Added again while failed: nothing changes, nothing runs.
        await survivor.add({ queue, id: 'poison', tenantId, data: { n: 2 } });
        await sleep(300);
        expect(started).toBe(1);
        expect((await survivor.state(tenantId, queue, 'poison'))?.status).toBe('failed');
        expect(failed).toHaveLength(1);
      });

      it('doubles the backoff per attempt', async () => {
        const jobs = await harness.open();
        const queue = fresh();
        const tenantId = tenant();
        const at: number[] = [];
        jobs.work(
          queue,
          async (job) => {
            at.push(Date.now());
            if (job.attempt < 3) throw new Error('the site answered 503');
          },
          { concurrency: 1 },
        );
        await jobs.add({ queue, id: 'flaky', tenantId, data: {}, backoffMs: 200 });
        await until(
          async () => (await jobs.state(tenantId, queue, 'flaky'))?.status === 'completed',
        );
        expect(at).toHaveLength(3);
        const [first = 0, second = 0, third = 0] = at;
        expect(second - first).toBeGreaterThanOrEqual(190);
        expect(third - second).toBeGreaterThanOrEqual(390);
        expect(await jobs.state(tenantId, queue, 'flaky')).toMatchObject({
          attempts: 3,
          error: null,
        });
      });

      it('accepts ids and queue names BullMQ refuses as they are (integers, colons)', async () => {
        const jobs = await harness.open();
        const queue = `crawl:${fresh()}`;
        const tenantId = tenant();
        const seen: string[] = [];
        jobs.work(queue, async (job) => void seen.push(job.id), { concurrency: 2 });
        await jobs.add({ queue, id: '42', tenantId, data: {} });
        await jobs.add({ queue, id: 'site:7', tenantId, data: {} });
        await jobs.add({ queue, id: '42', tenantId, data: {} });
        await until(async () => {
          const states = await Promise.all(
            ['42', 'site:7'].map((id) => jobs.state(tenantId, queue, id)),
          );
          return states.every((s) => s?.status === 'completed');
        });
        expect(seen.sort()).toEqual(['42', 'site:7']);
        expect(await jobs.state(tenantId, queue, '4')).toBeNull();
      });
    });
  });
}

// No redis-server needed: nothing listens on the port.
describe('job queue: redis unreachable', () => {
  it('gives up on an add, a state or a retry within its deadline, and closes without waiting', async () => {
    const queue = createRedisJobQueue({
      url: 'redis://127.0.0.1:1',
      callTimeoutMs: 300,
      log: { warn: () => undefined },
    });
    try {
      const started = Date.now();
      const calls = [
        queue.add({ queue: 'crawl', id: 'job-1', tenantId: 't', data: {} }),
        queue.state('t', 'crawl', 'job-1'),
        queue.retry('t', 'crawl', 'job-1'),
      ];
      for (const call of calls) {
        await expect(call).rejects.toMatchObject({
          name: 'JobQueueUnavailableError',
          message: expect.stringMatching(/did not answer within 0.3 s/),
        });
      }
      expect(isJobQueueUnavailableError(await calls[0]?.catch((e: unknown) => e))).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
      // A worker waiting for Redis does not hold the process's shutdown.
      queue.work('crawl', async () => undefined, { concurrency: 1 });
      const closing = Date.now();
      await queue.close();
      expect(Date.now() - closing).toBeLessThan(2_000);
    } finally {
      await queue.close();
    }
  });
});
