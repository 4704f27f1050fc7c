// The embedded job queue's jobs (@tandem/jobs' embedded adapter).
import { isoTime } from '../../shared';

export type QueuedJobStatus = 'waiting' | 'active' | 'completed' | 'failed';

/**
 * A unit of background work in the embedded job queue (@tandem/jobs' embedded adapter): what it
 * is, who holds it and until when, and how often it has been tried. Every process on the store
 * claims from the same rows, so a job runs on one worker at a time and a worker that dies (its
 * lease not renewed) is replaced by another process's claim.
 */
export interface QueuedJob {
  /** The caller's id (a crawl's job id…): unique within `queue`. */
  id: string;
  queue: string;
  tenantId: string;
  /** JSON, as given. */
  data: unknown;
  status: QueuedJobStatus;
  /** Times a worker claimed it (an attempt cut short by a dead worker counts). */
  attempts: number;
  maxAttempts: number;
  /** Delay before the second attempt; doubled for each further one. */
  backoffMs: number;
  /** Not claimed before this (backoff). */
  runAt: string;
  /** The worker holding it while active; null otherwise. */
  owner: string | null;
  leaseExpiresAt: string | null;
  /** Why the last attempt failed (kept when a later attempt is waiting). */
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface NewQueuedJob {
  id: string;
  queue: string;
  tenantId: string;
  data: unknown;
  maxAttempts: number;
  backoffMs: number;
  /** Default: now. */
  runAt?: string;
}

/**
 * The embedded queue's rows. Reads for views are tenant-scoped; claiming, renewing and finishing
 * are the workers' and go by (queue, id, owner): a worker serves every tenant, and only the
 * owner of a live lease can finish an attempt (a worker that lost its lease changes nothing).
 */
export interface QueuedJobRepository {
  /** Inserts the job waiting; when (queue, id) exists in any state, returns it unchanged. */
  add(input: NewQueuedJob, now?: string): Promise<{ job: QueuedJob; created: boolean }>;
  get(tenantId: string, queue: string, id: string): Promise<QueuedJob | null>;
  /**
   * Claims for `owner`, until `now + leaseMs`, the runnable job of `queue` with the earliest
   * runAt (then createdAt, id): a waiting job whose runAt has come, or an active one whose lease
   * has expired (its worker died) and that has attempts left (one without is for `abandon`). It
   * becomes active and its attempts grow by one. With
   * `onePerTenant`, a job whose tenant already has a live active job in the queue is passed over.
   * Null when none is runnable.
   */
  claim(
    queue: string,
    owner: string,
    leaseMs: number,
    options?: { onePerTenant?: boolean },
    now?: string,
  ): Promise<QueuedJob | null>;
  /** Extends the owner's live lease to `now + leaseMs`; false when it is no longer the owner's. */
  renew(queue: string, id: string, owner: string, leaseMs: number, now?: string): Promise<boolean>;
  /** Completed, when `owner` still holds it; false otherwise (nothing changes). */
  complete(queue: string, id: string, owner: string, now?: string): Promise<boolean>;
  /**
   * The owner's attempt failed with `error`: waiting again from `retryAt`, or failed for good
   * when `retryAt` is null. False (nothing changes) when `owner` no longer holds it.
   */
  fail(
    queue: string,
    id: string,
    owner: string,
    error: string,
    retryAt: string | null,
    now?: string,
  ): Promise<boolean>;
  /**
   * The owner stops without finishing (its process is closing): the job waits again at once,
   * its attempt not counted. False (nothing changes) when `owner` no longer holds it.
   */
  release(queue: string, id: string, owner: string, now?: string): Promise<boolean>;
  /**
   * Fails for good an active job whose lease expired with no attempt left (its last worker
   * died), whoever held it; false when the job is not such a job.
   */
  abandon(queue: string, id: string, error: string, now?: string): Promise<boolean>;
  /** A failed job waits again with its attempts reset (the retry button); null if not failed. */
  retry(tenantId: string, queue: string, id: string, now?: string): Promise<QueuedJob | null>;
  /**
   * Active jobs of `queue` whose lease has expired with no attempt left (to abandon), oldest
   * first, at most `limit` (default 20).
   */
  listExhausted(queue: string, options?: { limit?: number }, now?: string): Promise<QueuedJob[]>;
}

/**
 * A queued job waits from `runAt` (now unless given), untried and unowned. Its data is kept as
 * given; each adapter stores it as JSON.
 */
export function newQueuedJobRecord(input: NewQueuedJob, now: string): QueuedJob {
  return {
    id: input.id,
    queue: input.queue,
    tenantId: input.tenantId,
    data: input.data,
    status: 'waiting',
    attempts: 0,
    maxAttempts: input.maxAttempts,
    backoffMs: input.backoffMs,
    runAt: input.runAt === undefined ? now : isoTime(input.runAt),
    owner: null,
    leaseExpiresAt: null,
    error: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  };
}
