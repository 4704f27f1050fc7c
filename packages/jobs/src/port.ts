// The job port: background work (crawls, document-extraction runs, large ingestion) that any
// server or worker process may run, exactly one worker at a time. Two adapters keep the same
// contract (testing/job-queue-contract.ts): embedded (rows in the store; what `npm start`
// runs, no service needed) and Redis (BullMQ; selected by REDIS_URL, the scale path).
//
// Semantics both adapters keep:
// - `add` is idempotent by (queue, id): adding a job that exists, in any state, changes nothing
//   (three processes resuming the same crawl queue it once);
// - a job runs on one worker at a time; a worker that dies is replaced within about one lease
//   (the job's next attempt resumes from the progress its handler stored). A takeover uses an
//   attempt: `attempts` counts attempts started, takeovers included, not runs a closing
//   process handed back; when the worker of the last attempt dies, the job fails for good;
// - a handler that throws is retried after `backoffMs`, doubled per attempt, up to `attempts`;
//   a PermanentJobError, or the last attempt's failure, fails the job for good: `onFailed` runs
//   once (on whichever process sees it) and `state` says failed with the reason;
// - a completed job never runs again; `retry` puts a failed one back.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
export type JobStatus = 'waiting' | 'active' | 'completed' | 'failed';

export interface JobSpec<T = unknown> {
  queue: string;
  /** The caller's id (a crawl job's id…): the job's identity in its queue. */
  id: string;
  tenantId: string;
  /** JSON. */
  data: T;
  /** Attempts before the job fails for good. Default 3. */
  attempts?: number;
  /** Wait before the second attempt, doubled for each further one. Default 5,000 ms. */
  backoffMs?: number;
}

export interface RunningJob<T = unknown> {
  queue: string;
  id: string;
  tenantId: string;
  data: T;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
  /**
   * Aborted when this worker must stop: it lost the job (another worker took it over), or the
   * process is closing. The handler stops between units of work and stores nothing more.
   */
  signal: AbortSignal;
}

export type JobHandler<T = unknown> = (job: RunningJob<T>) => Promise<void>;

export interface JobState {
  queue: string;
  id: string;
  tenantId: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  /** Why the last attempt failed. */
  error: string | null;
}

export interface WorkOptions<T = unknown> {
  /** Jobs of this queue this process runs at once. */
  concurrency: number;
  /** Called once when a job fails for good (after its last attempt, or a permanent error). */
  onFailed?: (job: JobState & { data: T }) => Promise<void> | void;
}

export interface JobQueue {
  readonly kind: 'embedded' | 'redis';
  add<T>(spec: JobSpec<T>): Promise<void>;
  /** The job as its tenant may see it; null when unknown (or another tenant's). */
  state(tenantId: string, queue: string, id: string): Promise<JobState | null>;
  /** A failed job waits again with fresh attempts; false when it is not failed. */
  retry(tenantId: string, queue: string, id: string): Promise<boolean>;
  /** Starts running `queue`'s jobs in this process. One handler per queue per JobQueue. */
  work<T>(queue: string, handler: JobHandler<T>, options: WorkOptions<T>): void;
  /** Stops taking jobs, aborts running handlers' signals and waits for them to return. */
  close(): Promise<void>;
}

/**
 * The queue's service did not answer in time (Redis down or unreachable): nothing was queued,
 * retried or read. Callers answer "try again later" instead of waiting on a connection that
 * may never come back.
 */
export class JobQueueUnavailableError extends Error {
  override readonly name = 'JobQueueUnavailableError';
}

export const isJobQueueUnavailableError = (error: unknown): error is JobQueueUnavailableError =>
  error instanceof Error && error.name === 'JobQueueUnavailableError';

/** Thrown by a handler: the job fails for good, without further attempts. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

export const isPermanentJobError = (error: unknown): error is PermanentJobError =>
  error instanceof Error && error.name === 'PermanentJobError';

export const DEFAULT_ATTEMPTS = 3;
export const DEFAULT_BACKOFF_MS = 5_000;

/** The wait before attempt `next` (2, 3, …): backoffMs, doubled per attempt after the second. */
export const backoffBefore = (next: number, backoffMs: number): number =>
  backoffMs * 2 ** Math.max(0, next - 2);

/** Where the adapters report what they recover from (the runtime's logger fits). */
export interface PortLog {
  warn(message: string, fields?: Record<string, unknown>): void;
}

/**
 * This process in leases and relay rows: host and pid to read, and a random suffix because a
 * pid comes back after a restart and a new process must not pass for the dead one.
 */
export const processTag = (): string =>
  `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
