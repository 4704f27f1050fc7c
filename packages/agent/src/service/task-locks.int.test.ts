// TaskLocks over the real embedded store: the lock is exclusive per task and tenant, freed
// however its holder ends, and a lease runs out; the fork marker is set once and cleared.
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InteractError } from './interact-error';
import { DEFAULT_LOCK_TTL_MS, idempotencyTaskLocks, type TaskLocks } from './task-locks';

let store: Store;
let locks: TaskLocks;
let tenantId: string;

beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  locks = idempotencyTaskLocks(store.idempotency);
  tenantId = (await store.tenants.create({ name: 'locks' })).id;
});
afterEach(async () => store.close());

describe('TaskLocks.withLock', () => {
  it('answers TASK_BUSY to a second request while the first holds the task', async () => {
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = locks.withLock(tenantId, 'task-1', async () => {
      await held;
      return 'first';
    });
    const second = await locks.withLock(tenantId, 'task-1', async () => 'second').catch((e) => e);
    expect(second).toBeInstanceOf(InteractError);
    expect(second).toMatchObject({ code: 'TASK_BUSY', status: 409 });
    release();
    await expect(first).resolves.toBe('first');
    // Freed once the holder answered.
    await expect(locks.withLock(tenantId, 'task-1', async () => 'third')).resolves.toBe('third');
  });

  it('is per task and per tenant', async () => {
    const other = (await store.tenants.create({ name: 'other' })).id;
    const results = await locks.withLock(tenantId, 'task-1', () =>
      Promise.all([
        locks.withLock(tenantId, 'task-2', async () => 'other task'),
        locks.withLock(other, 'task-1', async () => 'other tenant'),
      ]),
    );
    expect(results).toEqual(['other task', 'other tenant']);
  });

  it('frees the task when the holder throws, and passes its error on', async () => {
    const boom = new Error('graph failed');
    await expect(
      locks.withLock(tenantId, 'task-1', async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    await expect(locks.withLock(tenantId, 'task-1', async () => 'next')).resolves.toBe('next');
  });

  it('lets a crashed holder’s lease run out', async () => {
    // Holders that never released: their process died mid-request, 10 and 40 seconds ago.
    const claim = (taskId: string, secondsAgo: number) =>
      store.idempotency.begin(
        tenantId,
        {
          key: `task-lock:${taskId}`,
          scope: 'task-lock',
          requestHash: `task-lock:${taskId}`,
          ttlMs: DEFAULT_LOCK_TTL_MS,
        },
        new Date(Date.now() - secondsAgo * 1000).toISOString(),
      );
    await claim('recent', 10);
    await claim('stale', 40);
    await expect(locks.withLock(tenantId, 'recent', async () => 'x')).rejects.toMatchObject({
      code: 'TASK_BUSY',
    });
    await expect(locks.withLock(tenantId, 'stale', async () => 'after')).resolves.toBe('after');
  });

  it('a live holder keeps its lease past the first term by renewing it', async () => {
    const short = idempotencyTaskLocks(store.idempotency, { lockTtlMs: 1_000 });
    let release = (): void => {};
    const held = short.withLock(tenantId, 'long', () => new Promise<void>((r) => (release = r)));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await expect(short.withLock(tenantId, 'long', async () => 'x')).rejects.toMatchObject({
      code: 'TASK_BUSY',
    });
    release();
    await held;
  });
});

describe('TaskLocks fork marker', () => {
  it('is absent, set (twice without error), seen, then cleared', async () => {
    expect(await locks.fork(tenantId, 'task-1')).toBeNull();
    await locks.markFork(tenantId, 'task-1');
    await locks.markFork(tenantId, 'task-1');
    expect(await locks.fork(tenantId, 'task-1')).not.toBeNull();
    expect(await locks.fork(tenantId, 'task-2')).toBeNull();
    await locks.clearFork(tenantId, 'task-1');
    expect(await locks.fork(tenantId, 'task-1')).toBeNull();
  });

  it('does not hold the task: a marked task can still be locked', async () => {
    await locks.markFork(tenantId, 'task-1');
    await expect(locks.withLock(tenantId, 'task-1', async () => 'ok')).resolves.toBe('ok');
  });
});
