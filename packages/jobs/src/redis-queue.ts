// The Redis job queue: BullMQ on a Redis server, the scale path (selected by REDIS_URL). Each
// port queue is one BullMQ Queue (add, state, retry) and, where this process works it, one
// BullMQ Worker. How the port's rules map onto BullMQ:
// - identity and dedupe: the port id is the BullMQ jobId, and BullMQ adds nothing while a job
//   with that id exists. Finished jobs are kept (KEEP_FINISHED) so a re-add stays a no-op and
//   `state` can answer;
// - one worker at a time: BullMQ's job lock, lockDuration = leaseMs, renewed by the worker;
//   a dead worker's lock expires and the stalled checker (every STALLED_CHECKS_PER_LEASE-th of
//   a lease) puts the job back in wait, where another worker takes it: about one lease;
// - attempts: `attempt` is BullMQ's attemptsStarted, so a takeover is the next attempt; a
//   failure on the last attempt (counting takeovers), or a PermanentJobError, is thrown as an
//   UnrecoverableError, so BullMQ fails the job for good; the wait before the next attempt is
//   the port's backoffBefore (a custom backoff strategy);
// - close: running handlers are aborted, and their jobs moved back to wait (moveToWait and
//   WaitingError) for another process to take at once, the interrupted attempt not counted.
import { Queue, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import {
  backoffBefore,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  isPermanentJobError,
  JobQueueUnavailableError,
  type JobHandler,
  type JobQueue,
  type JobSpec,
  type JobState,
  type JobStatus,
  type WorkOptions,
  type PortLog,
} from './port';

export interface RedisJobQueueOptions {
  /** redis://[user:password@]host:port[/db] */
  url: string;
  /** Prefix of every key the queues write. Default 'tandem'. */
  prefix?: string;
  /** A worker that stops renewing loses its job after this long. Default 30 s. */
  leaseMs?: number;
  /** How long an add, state or retry waits for Redis before giving up. Default 5 s. */
  callTimeoutMs?: number;
  log?: PortLog;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_CALL_TIMEOUT_MS = 5_000;
const DEFAULT_PREFIX = 'tandem';

// Takeover takes the rest of the dead worker's lock (at most a lease) plus up to one check.
const STALLED_CHECKS_PER_LEASE = 4;

// BullMQ's own bound on takeovers is per worker, not per job: kept far out of the way so that
// the job's `attempts` decide (see LAST_ATTEMPT_LOST); it only guards against a runaway loop.
const MAX_STALLED_COUNT = 1_000;

// BullMQ dedupes an add only while the job exists, and `state` can only answer for a kept job,
// so finished jobs stay 30 days (BullMQ trims older ones as later jobs of the queue finish).
const KEEP_FINISHED = { age: 30 * 24 * 60 * 60 };

// Chosen by the job's options and resolved by the workers' backoffStrategy below.
const BACKOFF_TYPE = 'tandem';

const LAST_ATTEMPT_LOST = 'The worker running its last attempt stopped (lease expired).';

// A released attempt was started but not spent: give it back, as long as the job is still ours.
const UNCOUNT_ATTEMPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('HINCRBY', KEYS[2], 'ats', -1)
end
return -1`;

interface Envelope<T = unknown> {
  tenantId: string;
  data: T;
}

type BullJob<T = unknown> = Job<Envelope<T>, void, string>;

interface Life {
  /** close() began: take nothing more, release what runs. */
  closing: boolean;
  /** halted, as after SIGKILL: write nothing more. */
  dead: boolean;
}

interface Context {
  client: Redis;
  prefix: string;
  leaseMs: number;
  life: Life;
  log: RedisJobQueueOptions['log'];
}

// BullMQ refuses custom ids that are integers or hold ':'; encoded behind a prefix, every port
// id is accepted and distinct ids stay distinct. Queue names may not hold ':' either.
const toJobId = (id: string): string => `j_${encodeURIComponent(id)}`;
const fromJobId = (jobId: string): string => decodeURIComponent(jobId.slice(2));
const toQueueName = (queue: string): string => encodeURIComponent(queue);

const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 2_000) || 'failed';

const maxAttemptsOf = (job: BullJob): number => job.opts.attempts ?? DEFAULT_ATTEMPTS;

const statusOf = (state: string): JobStatus | null => {
  switch (state) {
    case 'completed':
    case 'failed':
    case 'active':
      return state;
    case 'waiting':
    case 'delayed':
    case 'prioritized':
    case 'waiting-children':
      return 'waiting';
    default:
      return null;
  }
};

const stateOf = (queue: string, job: BullJob, status: JobStatus): JobState => ({
  queue,
  id: fromJobId(job.id ?? ''),
  tenantId: job.data.tenantId,
  status,
  // A job failed for a lost last attempt was started once more, only to be failed.
  attempts: Math.min(job.attemptsStarted ?? 0, maxAttemptsOf(job)),
  maxAttempts: maxAttemptsOf(job),
  error: status === 'completed' ? null : job.failedReason || null,
});

/** The wait before the next attempt, by the port's numbering (takeovers count). */
const backoffStrategy = (
  attemptsMade: number,
  _type?: string,
  _error?: Error,
  job?: { attemptsStarted?: number; opts: { backoff?: unknown } },
): number => {
  const backoff = job?.opts.backoff as { delay?: number } | undefined;
  return backoffBefore((job?.attemptsStarted ?? attemptsMade) + 1, backoff?.delay ?? 0);
};

interface Run {
  jobId: string;
  controller: AbortController;
  /** The lock was lost: another worker owns the job now. */
  lost: boolean;
}

class RedisWorker<T> {
  private readonly worker: Worker<Envelope<T>, void, string>;
  private readonly runs = new Set<Run>();
  /** onFailed calls under way: close() waits for them as it does for handlers. */
  private readonly telling = new Set<Promise<void>>();

  constructor(
    private readonly queue: string,
    private readonly handler: JobHandler<T>,
    private readonly options: WorkOptions<T>,
    private readonly context: Context,
  ) {
    const { client, prefix, leaseMs } = context;
    this.worker = new Worker<Envelope<T>, void, string>(
      toQueueName(queue),
      (job, token) => this.process(job, token),
      {
        connection: client,
        prefix,
        concurrency: options.concurrency,
        lockDuration: leaseMs,
        stalledInterval: Math.max(1, Math.floor(leaseMs / STALLED_CHECKS_PER_LEASE)),
        maxStalledCount: MAX_STALLED_COUNT,
        settings: { backoffStrategy },
      },
    );
    this.worker.on('failed', (job) => {
      const telling = this.failed(job).finally(() => this.telling.delete(telling));
      this.telling.add(telling);
    });
    this.worker.on('lockRenewalFailed', (jobIds) => this.lose(jobIds));
    this.worker.on('error', (error) => {
      if (!context.life.closing) context.log?.warn('job queue: worker error', { queue, error });
    });
  }

  private async process(job: BullJob<T>, token: string | undefined): Promise<void> {
    const attempt = job.attemptsStarted;
    const maxAttempts = maxAttemptsOf(job);
    // Taken over after the worker running the last attempt died: no attempt is left.
    if (attempt > maxAttempts) throw new UnrecoverableError(LAST_ATTEMPT_LOST);
    if (this.context.life.closing) return this.release(job, token);
    const run: Run = { jobId: job.id ?? '', controller: new AbortController(), lost: false };
    this.runs.add(run);
    let failure: { error: unknown } | null = null;
    try {
      await this.handler({
        queue: this.queue,
        id: fromJobId(job.id ?? ''),
        tenantId: job.data.tenantId,
        data: job.data.data,
        attempt,
        maxAttempts,
        signal: run.controller.signal,
      });
    } catch (error) {
      failure = { error };
    } finally {
      this.runs.delete(run);
    }
    // The job is no longer this worker's (a dead process, or a lost lock): BullMQ writes
    // nothing for a WaitingError, so its new owner's run stands.
    if (this.context.life.dead || run.lost) throw new WaitingError();
    if (this.context.life.closing) return this.release(job, token);
    if (failure === null) return;
    const message = messageOf(failure.error);
    if (isPermanentJobError(failure.error) || attempt >= maxAttempts) {
      throw new UnrecoverableError(message);
    }
    throw failure.error instanceof Error && failure.error.message === message
      ? failure.error
      : new Error(message);
  }

  /** Back to the front of wait for any worker to take at once; the attempt is not spent. */
  private async release(job: BullJob<T>, token: string | undefined): Promise<never> {
    const jobKey = this.worker.toKey(job.id ?? '');
    try {
      await this.context.client.eval(UNCOUNT_ATTEMPT, 2, `${jobKey}:lock`, jobKey, token ?? '');
      await job.moveToWait(token);
    } catch (error) {
      // Left active: its lock expires and another worker takes it over within a lease.
      this.context.log?.warn('job queue: releasing a job failed', {
        queue: this.queue,
        id: job.id,
        error,
      });
    }
    throw new WaitingError();
  }

  /** BullMQ's 'failed' also fires for attempts it will retry; only a final one is told. */
  private async failed(job: BullJob<T> | undefined): Promise<void> {
    if (!job?.finishedOn || !this.options.onFailed) return;
    try {
      await this.options.onFailed({ ...stateOf(this.queue, job, 'failed'), data: job.data.data });
    } catch (error) {
      this.context.log?.warn('job queue: onFailed threw', { queue: this.queue, id: job.id, error });
    }
  }

  private lose(jobIds: string[]): void {
    for (const run of this.runs) {
      if (!jobIds.includes(run.jobId)) continue;
      run.lost = true;
      run.controller.abort(new Error('Another worker took this job over.'));
    }
  }

  private abortAll(reason: Error): void {
    for (const run of this.runs) run.controller.abort(reason);
  }

  /** Stops taking jobs and waits for the running ones (released by `process`). */
  async close(): Promise<void> {
    this.abortAll(new Error('The process is closing.'));
    await this.worker.close();
    await Promise.all(this.telling);
  }

  /** As after SIGKILL: stops renewing and taking at once; the caller cuts the connections. */
  halt(): Promise<void> {
    const closed = this.worker.close(true);
    this.abortAll(new Error('The process died.'));
    return closed;
  }
}

const HALT = Symbol('halt');

class RedisJobQueue implements JobQueue {
  readonly kind = 'redis';
  private readonly context: Context;
  /** Adds, states and retries: fails after a few retries while Redis is away. */
  private readonly commands: Redis;
  private readonly queues = new Map<string, Queue<Envelope, void, string>>();
  private readonly workers = new Map<string, Pick<RedisWorker<unknown>, 'close' | 'halt'>>();
  private closed: Promise<void> | null = null;
  private readonly callTimeoutMs: number;

  constructor(options: RedisJobQueueOptions) {
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const log = options.log;
    const onError = (error: unknown) => {
      if (!this.context.life.closing) log?.warn('job queue: Redis connection error', { error });
    };
    this.commands = new Redis(options.url, { maxRetriesPerRequest: 3 }).on('error', onError);
    this.context = {
      // Workers wait out an outage instead of failing (BullMQ requires it for them).
      client: new Redis(options.url, { maxRetriesPerRequest: null }).on('error', onError),
      prefix: options.prefix ?? DEFAULT_PREFIX,
      leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      life: { closing: false, dead: false },
      log,
    };
  }

  private queueOf(name: string): Queue<Envelope, void, string> {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue<Envelope, void, string>(toQueueName(name), {
        connection: this.commands,
        prefix: this.context.prefix,
      });
      queue.on('error', (error) => {
        if (!this.context.life.closing) {
          this.context.log?.warn('job queue: queue error', { queue: name, error });
        }
      });
      this.queues.set(name, queue);
    }
    return queue;
  }

  private async jobOf(tenantId: string, name: string, id: string): Promise<BullJob | null> {
    const job = (await this.queueOf(name).getJob(toJobId(id))) as BullJob | undefined;
    // A job of another tenant (or not written by this adapter) is not this tenant's to see.
    return job && job.data?.tenantId === tenantId ? job : null;
  }

  /**
   * BullMQ waits for its connection to be ready however long that takes: a request queuing a job
   * while Redis is down would hang. Each call of the port gives up after `callTimeoutMs`.
   */
  private bounded<R>(what: string, call: () => Promise<R>): Promise<R> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new JobQueueUnavailableError(
              `The job queue (Redis) did not answer within ${this.callTimeoutMs / 1000} s (${what}).`,
            ),
          ),
        this.callTimeoutMs,
      );
    });
    return Promise.race([call(), deadline]).finally(() => clearTimeout(timer));
  }

  add<T>(spec: JobSpec<T>): Promise<void> {
    return this.bounded('add', () => this.addNow(spec));
  }

  private async addNow<T>(spec: JobSpec<T>): Promise<void> {
    await this.queueOf(spec.queue).add(
      spec.queue,
      { tenantId: spec.tenantId, data: spec.data },
      {
        jobId: toJobId(spec.id),
        attempts: spec.attempts ?? DEFAULT_ATTEMPTS,
        backoff: { type: BACKOFF_TYPE, delay: spec.backoffMs ?? DEFAULT_BACKOFF_MS },
        removeOnComplete: KEEP_FINISHED,
        removeOnFail: KEEP_FINISHED,
      },
    );
  }

  state(tenantId: string, name: string, id: string): Promise<JobState | null> {
    return this.bounded('state', async () => {
      const job = await this.jobOf(tenantId, name, id);
      const status = job && statusOf(await job.getState());
      return job && status ? stateOf(name, job, status) : null;
    });
  }

  retry(tenantId: string, name: string, id: string): Promise<boolean> {
    return this.bounded('retry', () => this.retryNow(tenantId, name, id));
  }

  private async retryNow(tenantId: string, name: string, id: string): Promise<boolean> {
    const job = await this.jobOf(tenantId, name, id);
    if (!job) return false;
    try {
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      return true;
    } catch (error) {
      // -1 gone, -3 not in failed (not failed, or retried meanwhile by another process).
      const code = (error as { code?: unknown }).code;
      if (code === -1 || code === -3) return false;
      throw error;
    }
  }

  work<T>(name: string, handler: JobHandler<T>, options: WorkOptions<T>): void {
    if (this.context.life.closing) throw new Error('The job queue is closed.');
    if (this.workers.has(name)) throw new Error(`Queue ${name} already has a worker here.`);
    this.workers.set(name, new RedisWorker(name, handler, options, this.context));
  }

  close(): Promise<void> {
    this.closed ??= this.shutDown();
    return this.closed;
  }

  private async shutDown(): Promise<void> {
    this.context.life.closing = true;
    // BullMQ's close waits for its connection, however long Redis stays away: with Redis
    // unreachable nothing can be handed back anyway (the leases lapse and another worker takes
    // the jobs), so the connections are cut instead of a shutdown that never ends.
    if (this.commands.status !== 'ready' && this.context.client.status !== 'ready') {
      this.context.log?.warn('job queue: Redis unreachable while closing; connections cut');
      await this.cut();
      return;
    }
    const graceful = (async () => {
      await Promise.all([...this.workers.values()].map((worker) => worker.close()));
      await Promise.all([...this.queues.values()].map((queue) => queue.close()));
      await Promise.allSettled([this.commands.quit(), this.context.client.quit()]);
    })();
    // Handlers stop between pages; one lease is the longest a handover may take.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = await Promise.race([
      graceful.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), this.context.leaseMs);
      }),
    ]).finally(() => clearTimeout(timer));
    if (late) {
      this.context.log?.warn('job queue: closing took longer than a lease; connections cut');
      await this.cut();
    }
  }

  async [HALT](): Promise<void> {
    if (this.context.life.dead) return;
    this.closed ??= Promise.resolve();
    await this.cut();
  }

  /** As after SIGKILL: stops at once, connections cut; what is on its way is lost. */
  private async cut(): Promise<void> {
    if (this.context.life.dead) return;
    this.context.life.closing = true;
    this.context.life.dead = true;
    const halted = [...this.workers.values()].map((worker) => worker.halt());
    // Cut at once: a lock renewal or a completion already on its way is lost, as in a crash.
    this.commands.disconnect();
    this.context.client.disconnect();
    await Promise.allSettled([
      ...halted,
      ...[...this.queues.values()].map((queue) => queue.close()),
    ]);
  }
}

export function createRedisJobQueue(options: RedisJobQueueOptions): JobQueue {
  return new RedisJobQueue(options);
}

/**
 * For tests: the process holding `queue` dies, as after SIGKILL: its connections are cut, it
 * renews, finishes and takes nothing more; its handlers' signals are aborted and whatever they
 * return is dropped. Another process takes their jobs over once their locks expire.
 */
export async function haltRedisJobQueue(queue: JobQueue): Promise<void> {
  await (queue as JobQueue & { [HALT]?: () => Promise<void> })[HALT]?.();
}
