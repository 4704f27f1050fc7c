// One run at a time per extraction or stack: two runs writing the same fields would each act on
// a state the other is changing. The lock is a lease in the store's idempotency repository (as
// task locks are), renewed while the run lasts, so a server that dies mid-run frees it within
// one lease and another process sees it held meanwhile.
//
// A run that goes on as a job (a document run on the job queue) names its owner, the run's id:
// the process that queued it and the worker that runs it (any process, a later attempt after a
// takeover included) both keep the same lock, and neither can take or free another run's.
import { isDuplicateKeyError, type IdempotencyRepository } from '@tandem/store';
import { LEASE_MS, adoptLease, keepRenewing, releaseLease } from '@tandem/jobs';
import { DocumentError } from './document-error';

export const RUN_LOCK_SCOPE = 'document-run';

export interface HeldLock {
  release(): Promise<void>;
  /** Stops renewing without freeing it: left to the run's next holder, or to lapse. */
  drop(): void;
}

type Leases = Pick<IdempotencyRepository, 'begin' | 'renew' | 'release'>;

const lockKey = (subject: string) => `${RUN_LOCK_SCOPE}:${subject}`;

const ALREADY_RUNNING =
  'The agent is already working on this; wait for its run to end, then try again.';

export async function claimRunLock(
  idempotency: Leases,
  tenantId: string,
  subject: string,
  leaseMs = LEASE_MS,
  /** The run's id, for a lock that other processes keep too (adoptRunLock). */
  owner?: string,
): Promise<HeldLock> {
  const key = lockKey(subject);
  try {
    await idempotency.begin(tenantId, {
      key,
      scope: RUN_LOCK_SCOPE,
      requestHash: owner ?? key,
      ttlMs: leaseMs,
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    throw new DocumentError('CONFLICT', ALREADY_RUNNING);
  }
  return keep(idempotency, { tenantId, key, leaseMs, ...(owner === undefined ? {} : { owner }) });
}

/**
 * Keeps the lock of run `owner` from this process: renews it, or claims it again when it lapsed
 * while the run changed hands (its worker died and the job waited for a lease). Null when
 * another run holds it now: that run is the extraction's, this one must not write.
 */
export async function adoptRunLock(
  idempotency: Leases,
  tenantId: string,
  subject: string,
  owner: string,
  leaseMs = LEASE_MS,
): Promise<HeldLock | null> {
  const claim = { tenantId, key: lockKey(subject), leaseMs, owner };
  if (!(await adoptLease(idempotency, { ...claim, scope: RUN_LOCK_SCOPE }))) return null;
  return keep(idempotency, claim);
}

/** Frees the lock if run `owner` still holds it (never the lock of a run started since). */
export async function releaseRunLock(
  idempotency: Pick<IdempotencyRepository, 'release'>,
  tenantId: string,
  subject: string,
  owner: string,
): Promise<void> {
  await releaseLease(idempotency, { tenantId, key: lockKey(subject), owner }).catch(() => false);
}

function keep(
  idempotency: Leases,
  claim: { tenantId: string; key: string; leaseMs: number; owner?: string },
): HeldLock {
  const stop = keepRenewing(idempotency, claim);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      stop();
      await releaseLease(idempotency, claim).catch(() => false);
    },
    drop() {
      released = true;
      stop();
    },
  };
}
