// The embedded job queue: rows in the store (QueuedJobRepository), claimed under a lease by
// whichever process polls first. What `npm start` runs: no service to install, and several
// processes on one data directory already share the work (a job runs on one of them at a time;
// one that dies stops renewing its lease and another takes the job over within a lease and a
// poll). It is the one-machine path; the scale path is the Redis adapter (redis-queue.ts).
import type { QueuedJob, QueuedJobRepository } from '@tandem/store';
import {
  backoffBefore,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  isPermanentJobError,
  processTag,
  type PortLog,
  type JobHandler,
  type JobQueue,
  type JobState,
  type WorkOptions,
} from './port';

export interface EmbeddedJobQueueOptions {
  store: { queuedJobs: QueuedJobRepository };
  /** This process in leases; default host, pid and a random suffix. */
  owner?: string;
  /** A worker that stops renewing loses its job after this long. Default 30 s. */
  leaseMs?: number;
  /** How often an idle worker looks for jobs (other processes' adds, backoffs, takeovers). */
  pollMs?: number;
  log?: PortLog;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 1_000;

const stateOf = (job: QueuedJob): JobState => ({
  queue: job.queue,
  id: job.id,
  tenantId: job.tenantId,
  status: job.status,
  attempts: job.attempts,
  maxAttempts: job.maxAttempts,
  error: job.error,
});

const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 2_000) || 'failed';

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

const HALT = Symbol('halt');

class EmbeddedWorker<T> {
  private readonly running = new Map<string, Running>();
  private readonly timer: ReturnType<typeof setInterval>;
  private pumping: Promise<void> | null = null;
  private again = false;
  halted = false;
  closing = false;

  constructor(
    private readonly queue: string,
    private readonly handler: JobHandler<T>,
    private readonly options: WorkOptions<T>,
    private readonly config: Required<Omit<EmbeddedJobQueueOptions, 'log'>> &
      Pick<EmbeddedJobQueueOptions, 'log'>,
  ) {
    this.timer = setInterval(() => this.wake(), config.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for work now (a local add, a retry, the poll); one look at a time. */
  wake(): void {
    if (this.halted || this.closing) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch((error: unknown) =>
        this.config.log?.warn('job queue: claiming failed', { queue: this.queue, error }),
      )
      .finally(() => {
        this.pumping = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async pump(): Promise<void> {
    const { store, owner, leaseMs } = this.config;
    await this.abandonExhausted();
    while (!this.halted && !this.closing && this.running.size < this.options.concurrency) {
      const job = await store.queuedJobs.claim(this.queue, owner, leaseMs);
      if (!job) return;
      this.start(job);
    }
  }

  /** Jobs whose last worker died on their last attempt: failed for good, once. */
  private async abandonExhausted(): Promise<void> {
    const { store } = this.config;
    for (const job of await store.queuedJobs.listExhausted(this.queue)) {
      const error = job.error ?? 'The worker running its last attempt stopped (lease expired).';
      if (await store.queuedJobs.abandon(this.queue, job.id, error)) {
        await this.options.onFailed?.({
          ...stateOf(job),
          status: 'failed',
          error,
          data: job.data as T,
        });
      }
    }
  }

  private start(job: QueuedJob): void {
    const controller = new AbortController();
    const done = this.run(job, controller).finally(() => {
      this.running.delete(job.id);
      this.wake();
    });
    this.running.set(job.id, { controller, done });
  }

  private async run(job: QueuedJob, controller: AbortController): Promise<void> {
    const { store, owner, leaseMs } = this.config;
    let lost = false;
    const heartbeat = setInterval(() => {
      if (this.halted) return;
      void store.queuedJobs.renew(this.queue, job.id, owner, leaseMs).then(
        (held) => {
          if (held) return;
          lost = true;
          controller.abort(new Error('Another worker took this job over.'));
        },
        () => undefined, // a failed renewal is retried at the next beat, within the lease
      );
    }, leaseMs / 3);
    heartbeat.unref();
    let failure: unknown = null;
    try {
      await this.handler({
        queue: job.queue,
        id: job.id,
        tenantId: job.tenantId,
        data: job.data as T,
        attempt: job.attempts,
        maxAttempts: job.maxAttempts,
        signal: controller.signal,
      });
    } catch (error) {
      failure = error;
    } finally {
      clearInterval(heartbeat);
    }
    // A dead process writes nothing; one that lost the job leaves it to its new owner.
    if (this.halted || lost) return;
    if (this.closing) {
      await store.queuedJobs.release(this.queue, job.id, owner);
      return;
    }
    if (failure === null) {
      await store.queuedJobs.complete(this.queue, job.id, owner);
      return;
    }
    await this.failAttempt(job, failure);
  }

  private async failAttempt(job: QueuedJob, failure: unknown): Promise<void> {
    const { store, owner } = this.config;
    const error = messageOf(failure);
    const final = isPermanentJobError(failure) || job.attempts >= job.maxAttempts;
    const retryAt = final
      ? null
      : new Date(Date.now() + backoffBefore(job.attempts + 1, job.backoffMs)).toISOString();
    const failed = await store.queuedJobs.fail(this.queue, job.id, owner, error, retryAt);
    if (failed && final) {
      await this.options.onFailed?.({
        ...stateOf(job),
        status: 'failed',
        error,
        data: job.data as T,
      });
    }
    if (failed && retryAt) {
      // Back by itself when the backoff ends, without waiting for the next poll.
      setTimeout(() => this.wake(), Date.parse(retryAt) - Date.now() + 5).unref();
    }
  }

  async close(): Promise<void> {
    // A dead process waits for nothing: its handlers' results are lost anyway.
    if (this.halted) return;
    this.closing = true;
    clearInterval(this.timer);
    for (const { controller } of this.running.values()) {
      controller.abort(new Error('The process is closing.'));
    }
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
    await this.pumping;
  }

  halt(): void {
    this.halted = true;
    clearInterval(this.timer);
    for (const { controller } of this.running.values()) {
      controller.abort(new Error('The process died.'));
    }
  }
}

export function createEmbeddedJobQueue(options: EmbeddedJobQueueOptions): JobQueue {
  const config = {
    store: options.store,
    owner: options.owner ?? processTag(),
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    pollMs: options.pollMs ?? DEFAULT_POLL_MS,
    log: options.log,
  };
  const workers = new Map<string, EmbeddedWorker<never>>();
  let closed = false;
  const queue: JobQueue & { [HALT]: () => void } = {
    kind: 'embedded',
    async add(spec) {
      await config.store.queuedJobs.add({
        id: spec.id,
        queue: spec.queue,
        tenantId: spec.tenantId,
        data: spec.data,
        maxAttempts: spec.attempts ?? DEFAULT_ATTEMPTS,
        backoffMs: spec.backoffMs ?? DEFAULT_BACKOFF_MS,
      });
      workers.get(spec.queue)?.wake();
    },
    async state(tenantId, name, id) {
      const job = await config.store.queuedJobs.get(tenantId, name, id);
      return job ? stateOf(job) : null;
    },
    async retry(tenantId, name, id) {
      const job = await config.store.queuedJobs.retry(tenantId, name, id);
      if (job) workers.get(name)?.wake();
      return job !== null;
    },
    work(name, handler, workOptions) {
      if (closed) throw new Error('The job queue is closed.');
      if (workers.has(name)) throw new Error(`Queue ${name} already has a worker here.`);
      workers.set(
        name,
        new EmbeddedWorker(name, handler, workOptions, config) as EmbeddedWorker<never>,
      );
    },
    async close() {
      closed = true;
      await Promise.all([...workers.values()].map((w) => w.close()));
    },
    [HALT]() {
      closed = true;
      for (const worker of workers.values()) worker.halt();
    },
  };
  return queue;
}

/**
 * For tests: the process holding `queue` dies, as after SIGKILL: it renews, finishes and takes
 * nothing more; handlers still running are left to run into the void.
 */
export function haltEmbeddedJobQueue(queue: JobQueue): void {
  (queue as JobQueue & { [HALT]?: () => void })[HALT]?.();
}
