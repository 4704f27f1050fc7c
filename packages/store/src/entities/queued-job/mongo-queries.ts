// Query documents of the embedded job queue. Every change is one findOneAndUpdate / updateOne
// whose filter re-checks the state it changes from, so a document only moves when it is still
// in that state: two claimers never take the same job, a lost lease finishes nothing.
import type { QueuedJob } from './record';
import type { QueuedJobDoc } from './mongo-schema';
import { toDate } from '../../mongo/queries/cursor';
import { jsonValue } from '../../mongo/queries/json';
import type { Filter, FindSpec, SortSpec, UpdateSpec } from '../../mongo/queries/spec';

const dateOrNull = (value: string | null): Date | null => (value === null ? null : toDate(value));

/** A new job as stored. */
export const queuedJobDoc = (job: QueuedJob): QueuedJobDoc => ({
  ...job,
  data: jsonValue(job.data),
  runAt: toDate(job.runAt),
  leaseExpiresAt: dateOrNull(job.leaseExpiresAt),
  createdAt: toDate(job.createdAt),
  updatedAt: toDate(job.updatedAt),
  finishedAt: dateOrNull(job.finishedAt),
});

/**
 * Inserts the job unless its (queue, id) exists. $setOnInsert only: an existing job, in any
 * state, is left exactly as it is. Two concurrent inserts of one key: the unique index refuses
 * the second, whose retry then matches the first.
 */
export function queuedJobInsert(doc: QueuedJobDoc): UpdateSpec {
  const { queue, id, ...fields } = doc;
  return { filter: { queue, id }, update: { $setOnInsert: fields }, upsert: true };
}

export const queuedJobFilter = (queue: string, id: string): Filter => ({ queue, id });

export const tenantQueuedJobFilter = (tenantId: string, queue: string, id: string): Filter => ({
  queue,
  id,
  tenantId,
});

/** Tenants of `queue` with a live active job (their `tenantId`s, for onePerTenant). */
export const busyTenantsFilter = (queue: string, now: Date): Filter => ({
  queue,
  status: 'active',
  leaseExpiresAt: { $gte: now },
});

/** Same order as the libSQL adapter's claim: runAt, then createdAt, then id. */
const CLAIM_ORDER: SortSpec = { runAt: 1, createdAt: 1, id: 1 };

/**
 * Takes the queue's earliest runnable job for `owner`: waiting with its runAt come, or active
 * with its lease run out and an attempt left. `busyTenants` are passed over.
 */
export function claimQueuedJobUpdate(
  queue: string,
  owner: string,
  leaseMs: number,
  now: Date,
  busyTenants: readonly string[] = [],
): UpdateSpec {
  const filter: Filter = {
    queue,
    $or: [
      { status: 'waiting', runAt: { $lte: now } },
      {
        status: 'active',
        leaseExpiresAt: { $lt: now },
        $expr: { $lt: ['$attempts', '$maxAttempts'] },
      },
    ],
  };
  if (busyTenants.length > 0) filter.tenantId = { $nin: [...busyTenants] };
  return {
    filter,
    update: {
      $set: {
        status: 'active',
        owner,
        leaseExpiresAt: new Date(now.getTime() + leaseMs),
        updatedAt: now,
      },
      $inc: { attempts: 1 },
    },
    sort: CLAIM_ORDER,
  };
}

/** The attempt `owner` is running: active, its own, its lease not yet run out. */
const heldFilter = (queue: string, id: string, owner: string, now: Date): Filter => ({
  queue,
  id,
  status: 'active',
  owner,
  leaseExpiresAt: { $gte: now },
});

export function renewQueuedJobUpdate(
  queue: string,
  id: string,
  owner: string,
  leaseMs: number,
  now: Date,
): UpdateSpec {
  return {
    filter: heldFilter(queue, id, owner, now),
    update: { $set: { leaseExpiresAt: new Date(now.getTime() + leaseMs), updatedAt: now } },
  };
}

/** What every end of a holder's lease sets: no owner, no lease, changed now. */
const leaseCleared = (now: Date) => ({ owner: null, leaseExpiresAt: null, updatedAt: now });

export function completeQueuedJobUpdate(
  queue: string,
  id: string,
  owner: string,
  now: Date,
): UpdateSpec {
  return {
    filter: heldFilter(queue, id, owner, now),
    update: {
      $set: { ...leaseCleared(now), status: 'completed', finishedAt: now },
    },
  };
}

/** Waiting again from `retryAt`, or failed for good when it is null. */
export function failQueuedJobUpdate(
  queue: string,
  id: string,
  owner: string,
  error: string,
  retryAt: Date | null,
  now: Date,
): UpdateSpec {
  const released = { ...leaseCleared(now), error };
  return {
    filter: heldFilter(queue, id, owner, now),
    update: {
      $set:
        retryAt === null
          ? { ...released, status: 'failed', finishedAt: now }
          : { ...released, status: 'waiting', runAt: retryAt },
    },
  };
}

/**
 * The owner stops without finishing: waiting again, the attempt uncounted. Its place in line is
 * kept (runAt is already due; $min only guards a caller's earlier `now`).
 */
export function releaseQueuedJobUpdate(
  queue: string,
  id: string,
  owner: string,
  now: Date,
): UpdateSpec {
  return {
    filter: heldFilter(queue, id, owner, now),
    update: {
      $set: { ...leaseCleared(now), status: 'waiting' },
      $inc: { attempts: -1 },
      $min: { runAt: now },
    },
  };
}

/** Active, its lease run out and no attempt left: its last worker died. */
const exhaustedFilter = (queue: string, now: Date): Filter => ({
  queue,
  status: 'active',
  leaseExpiresAt: { $lt: now },
  $expr: { $gte: ['$attempts', '$maxAttempts'] },
});

export function abandonQueuedJobUpdate(
  queue: string,
  id: string,
  error: string,
  now: Date,
): UpdateSpec {
  return {
    filter: { ...exhaustedFilter(queue, now), id },
    update: {
      $set: { ...leaseCleared(now), status: 'failed', error, finishedAt: now },
    },
  };
}

export const exhaustedQueuedJobsQuery = (queue: string, now: Date, limit: number): FindSpec => ({
  filter: exhaustedFilter(queue, now),
  sort: { createdAt: 1, id: 1 },
  limit,
});

/** A failed job of the tenant waits again from `now`, as if new. */
export function retryQueuedJobUpdate(
  tenantId: string,
  queue: string,
  id: string,
  now: Date,
): UpdateSpec {
  return {
    filter: { ...tenantQueuedJobFilter(tenantId, queue, id), status: 'failed' },
    update: {
      $set: {
        ...leaseCleared(now),
        status: 'waiting',
        attempts: 0,
        runAt: now,
        error: null,
        finishedAt: null,
      },
    },
  };
}
