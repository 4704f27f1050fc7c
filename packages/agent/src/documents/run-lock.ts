// One run at a time per extraction or stack: two runs writing the same fields would each act on
// a state the other is changing. The lock is a lease in the store's idempotency repository (as
// task locks are), renewed while the run lasts, so a server that dies mid-run frees it within
// one lease and another process sees it held meanwhile.
import { isDuplicateKeyError, type IdempotencyRepository } from '@tandem/store';
import { LEASE_MS } from '../service/lease';
import { InteractError } from '../service/interact-error';

export const RUN_LOCK_SCOPE = 'document-run';

export interface HeldLock {
  release(): Promise<void>;
}

export async function claimRunLock(
  idempotency: Pick<IdempotencyRepository, 'begin' | 'renew' | 'release'>,
  tenantId: string,
  subject: string,
  leaseMs = LEASE_MS,
): Promise<HeldLock> {
  const key = `${RUN_LOCK_SCOPE}:${subject}`;
  try {
    await idempotency.begin(tenantId, {
      key,
      scope: RUN_LOCK_SCOPE,
      requestHash: key,
      ttlMs: leaseMs,
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    throw new InteractError(
      'CONFLICT',
      'The agent is already working on this; wait for its run to end, then try again.',
    );
  }
  const timer = setInterval(() => {
    void idempotency.renew(tenantId, key, leaseMs).catch(() => false);
  }, leaseMs / 3);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await idempotency.release(tenantId, key).catch(() => false);
    },
  };
}
