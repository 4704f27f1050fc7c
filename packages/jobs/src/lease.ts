// Claims held as leases: a request renews its claim (task lock, idempotency key) every third
// of the lease while it runs, so a claim outlives no holder by more than one lease. Before,
// claims lived for minutes: a server killed mid-request left its task busy, and its
// idempotency key "in progress", for that long after it came back.
//
// An owned lease names its owner in the claim's requestHash (a queued run's id): the process
// that queued the run and the worker that runs it keep the same lease, every renewal and
// release is conditional on the owner in the store's one statement, so neither can extend or
// free a lease another owner took after it lapsed.
import { isDuplicateKeyError, type IdempotencyRepository } from '@tandem/store';

/** How long a claim survives its holder: short, because a live holder renews it. */
export const LEASE_MS = 30_000;

export interface LeaseClaim {
  tenantId: string;
  key: string;
  leaseMs?: number;
  /** The owner of an owned lease (its requestHash). */
  owner?: string;
}

/** Renews the claim every third of its lease until the returned function is called. */
export function keepRenewing(
  idempotency: Pick<IdempotencyRepository, 'renew'>,
  claim: LeaseClaim,
): () => void {
  const leaseMs = claim.leaseMs ?? LEASE_MS;
  const options = claim.owner === undefined ? {} : { requestHash: claim.owner };
  const timer = setInterval(() => {
    // A failed renewal is retried at the next tick; a lease lost meanwhile is what TASK_BUSY
    // and the idempotency conflict then report to a second request.
    void idempotency.renew(claim.tenantId, claim.key, leaseMs, options).catch(() => false);
  }, leaseMs / 3);
  // Never keeps a process alive on its own (tests, a server shutting down).
  timer.unref();
  return () => clearInterval(timer);
}

export async function whileHolding<T>(
  idempotency: Pick<IdempotencyRepository, 'renew'>,
  claim: LeaseClaim,
  fn: () => Promise<T>,
): Promise<T> {
  const stop = keepRenewing(idempotency, claim);
  try {
    return await fn();
  } finally {
    stop();
  }
}

/**
 * Takes over, in this process, the lease another process claimed for `owner`: renews it while
 * it is still the owner's, or claims it again when it lapsed while the work changed hands and
 * nobody took it since. False when another owner holds it now.
 */
export async function adoptLease(
  idempotency: Pick<IdempotencyRepository, 'renew' | 'begin'>,
  claim: LeaseClaim & { owner: string; scope: string },
): Promise<boolean> {
  const ttlMs = claim.leaseMs ?? LEASE_MS;
  if (await idempotency.renew(claim.tenantId, claim.key, ttlMs, { requestHash: claim.owner }))
    return true;
  return claimLease(idempotency, claim);
}

/** Claims the key (for `owner`, else unowned); false when a live claim already holds it. */
export async function claimLease(
  idempotency: Pick<IdempotencyRepository, 'begin'>,
  claim: LeaseClaim & { scope: string },
): Promise<boolean> {
  const { tenantId, key, scope } = claim;
  try {
    await idempotency.begin(tenantId, {
      key,
      scope,
      requestHash: claim.owner ?? key,
      ttlMs: claim.leaseMs ?? LEASE_MS,
    });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** Frees a claim: an owned one only while it is still the owner's. */
export function releaseLease(
  idempotency: Pick<IdempotencyRepository, 'release'>,
  claim: LeaseClaim,
): Promise<boolean> {
  return idempotency.release(
    claim.tenantId,
    claim.key,
    claim.owner === undefined ? {} : { requestHash: claim.owner },
  );
}
