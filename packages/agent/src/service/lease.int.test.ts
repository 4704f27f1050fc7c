// Owned leases on the real store (libSQL): a lease that changed hands is never extended or freed
// by its former holder, and a queued run's worker takes over its owner's lease.
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adoptLease, keepRenewing, releaseLease } from '@tandem/jobs';
import { idempotencyTaskLocks } from './task-locks';

let store: Store;
beforeAll(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
});
afterAll(() => store.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('owned leases', () => {
  it("adopts its owner's lease, claims it again once lapsed, and never another owner's", async () => {
    const tenantId = (await store.tenants.create({ name: 'leases' })).id;
    const idempotency = store.idempotency;
    const claim = { tenantId, key: 'run:1', scope: 'run', leaseMs: 200 };
    await idempotency.begin(tenantId, { ...claim, requestHash: 'run-a', ttlMs: 200 });
    expect(await adoptLease(idempotency, { ...claim, owner: 'run-b' })).toBe(false);
    expect(await adoptLease(idempotency, { ...claim, owner: 'run-a' })).toBe(true);
    // Lapsed with nobody holding it: its owner's worker takes it again.
    await sleep(250);
    expect(await adoptLease(idempotency, { ...claim, owner: 'run-a' })).toBe(true);
    expect(await idempotency.get(tenantId, 'run:1')).toMatchObject({ requestHash: 'run-a' });
    // Lapsed and taken by another run: the former owner neither frees nor renews it.
    await sleep(250);
    expect(await adoptLease(idempotency, { ...claim, owner: 'run-b' })).toBe(true);
    expect(await releaseLease(idempotency, { ...claim, owner: 'run-a' })).toBe(false);
    const stop = keepRenewing(idempotency, { ...claim, owner: 'run-a', leaseMs: 90 });
    await sleep(100);
    stop();
    expect(await idempotency.get(tenantId, 'run:1')).toMatchObject({ requestHash: 'run-b' });
    expect(await releaseLease(idempotency, { ...claim, owner: 'run-b' })).toBe(true);
  });

  it('a request whose task lock lapsed does not free the lock the next request took', async () => {
    const tenantId = (await store.tenants.create({ name: 'locks' })).id;
    const locks = idempotencyTaskLocks(store.idempotency, { lockTtlMs: 150 });
    let secondHolds = (): void => {};
    let firstMayEnd = (): void => {};
    const first = locks.withLock(tenantId, 'task-1', async () => {
      await new Promise<void>((resolve) => (firstMayEnd = resolve));
    });
    // The first request's lease lapses as if its process had stalled past it (its claim is
    // taken away here), and the next request takes the task.
    await store.idempotency.release(tenantId, 'task-lock:task-1');
    const second = locks.withLock(tenantId, 'task-1', async () => {
      secondHolds();
      await sleep(100);
      firstMayEnd();
      await sleep(50);
      // The first request has ended and released: the second still holds the task.
      await expect(locks.withLock(tenantId, 'task-1', async () => 'third')).rejects.toMatchObject({
        code: 'TASK_BUSY',
      });
    });
    await new Promise<void>((resolve) => (secondHolds = resolve));
    await Promise.all([first, second]);
  });
});
