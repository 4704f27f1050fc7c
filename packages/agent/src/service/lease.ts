// Claims held as leases: a request renews its claim (task lock, idempotency key) every third
// of the lease while it runs, so a claim outlives no holder by more than one lease. Before,
// claims lived for minutes: a server killed mid-request left its task busy, and its
// idempotency key "in progress", for that long after it came back.
import type { IdempotencyRepository } from '@tandem/store';

/** How long a claim survives its holder: short, because a live holder renews it. */
export const LEASE_MS = 30_000;

export async function whileHolding<T>(
  idempotency: Pick<IdempotencyRepository, 'renew'>,
  claim: { tenantId: string; key: string; leaseMs?: number },
  fn: () => Promise<T>,
): Promise<T> {
  const leaseMs = claim.leaseMs ?? LEASE_MS;
  const timer = setInterval(() => {
    // A failed renewal is retried at the next tick; a lease lost meanwhile is what TASK_BUSY
    // and the idempotency conflict then report to a second request.
    void idempotency.renew(claim.tenantId, claim.key, leaseMs).catch(() => false);
  }, leaseMs / 3);
  // Never keeps a process alive on its own (tests, a server shutting down).
  timer.unref();
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
