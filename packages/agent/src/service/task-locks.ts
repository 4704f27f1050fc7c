// One request at a time per task, and the marker of a task whose last run threw. Both are
// records of the store's idempotency repository under scopes of their own ('task-lock' and
// 'task-fork'): each is "a unique key with a lease", which that repository already provides in
// both adapters under one contract (claims are atomic, expired ones can be claimed again). The
// lock is a lease its request renews (lease.ts), so a crashed request frees its task quickly.
import { randomUUID } from 'node:crypto';
import type { IdempotencyRepository } from '@tandem/store';
import { InteractError } from './interact-error';
import { LEASE_MS, claimLease, releaseLease, whileHolding } from '@tandem/jobs';

export interface TaskLocks {
  /** Runs `fn` holding the task's lock; a request already holding it answers TASK_BUSY. */
  withLock<T>(tenantId: string, taskId: string, fn: () => Promise<T>): Promise<T>;
  /**
   * The marker of a task whose last run threw: the hash of the request that threw
   * (requestHash), null when it had no idempotency key. Null when the last run did not throw.
   */
  fork(tenantId: string, taskId: string): Promise<{ requestHash: string | null } | null>;
  /** Marks the task's last run as failed, by `requestHash` when the request had a key. */
  markFork(tenantId: string, taskId: string, requestHash?: string | null): Promise<void>;
  clearFork(tenantId: string, taskId: string): Promise<void>;
}

export const LOCK_SCOPE = 'task-lock';
export const FORK_SCOPE = 'task-fork';
/** A crashed request frees its task after at most this long (its renewals stop). */
export const DEFAULT_LOCK_TTL_MS = LEASE_MS;
/** Longer than any task lives: the marker must outlast a pause of the task. */
const FORK_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Prefixes a failed request's hash in its task's fork marker (a bare marker holds its key). */
const FORK_REQUEST = 'request:';

const lockKey = (taskId: string) => `${LOCK_SCOPE}:${taskId}`;
const forkKey = (taskId: string) => `${FORK_SCOPE}:${taskId}`;

export function idempotencyTaskLocks(
  idempotency: IdempotencyRepository,
  options: { lockTtlMs?: number } = {},
): TaskLocks {
  const lockTtlMs = options.lockTtlMs ?? DEFAULT_LOCK_TTL_MS;
  const claim = (tenantId: string, key: string, scope: string, leaseMs: number, owner?: string) =>
    claimLease(idempotency, { tenantId, key, scope, leaseMs, ...(owner ? { owner } : {}) });
  return {
    async withLock(tenantId, taskId, fn) {
      const key = lockKey(taskId);
      // Owned by this request: had its lease lapsed (a stalled process) and another request
      // taken the task since, neither renewing nor releasing here touches that one's lock.
      const owner = randomUUID();
      if (!(await claim(tenantId, key, LOCK_SCOPE, lockTtlMs, owner))) {
        throw new InteractError(
          'TASK_BUSY',
          'Another request is already advancing this task; wait for its response.',
        );
      }
      try {
        return await whileHolding(idempotency, { tenantId, key, leaseMs: lockTtlMs, owner }, fn);
      } finally {
        // A release that fails leaves the lease to expire: never hide fn's own outcome.
        await releaseLease(idempotency, { tenantId, key, owner }).catch(() => false);
      }
    },
    async fork(tenantId, taskId) {
      const marker = await idempotency.get(tenantId, forkKey(taskId));
      if (!marker) return null;
      const named = marker.requestHash.startsWith(FORK_REQUEST);
      return { requestHash: named ? marker.requestHash.slice(FORK_REQUEST.length) : null };
    },
    async markFork(tenantId, taskId, requestHash) {
      const key = forkKey(taskId);
      // The marker names the request that failed last: an earlier failure's marker goes.
      await idempotency.release(tenantId, key);
      await claim(
        tenantId,
        key,
        FORK_SCOPE,
        FORK_TTL_MS,
        requestHash ? `${FORK_REQUEST}${requestHash}` : undefined,
      );
    },
    async clearFork(tenantId, taskId) {
      await idempotency.release(tenantId, forkKey(taskId));
    },
  };
}
