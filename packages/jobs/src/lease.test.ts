import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whileHolding } from './lease';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('whileHolding', () => {
  it('renews the claim every third of its lease while the work runs, then stops', async () => {
    const renewed: [string, string, number][] = [];
    const idempotency = {
      renew: async (tenantId: string, key: string, ttlMs: number) => {
        renewed.push([tenantId, key, ttlMs]);
        return true;
      },
    };
    let finish = (): void => {};
    const work = whileHolding(
      idempotency,
      { tenantId: 't1', key: 'task-lock:1', leaseMs: 3_000 },
      () => new Promise<string>((resolve) => (finish = () => resolve('done'))),
    );
    await vi.advanceTimersByTimeAsync(3_000);
    expect(renewed).toEqual([
      ['t1', 'task-lock:1', 3_000],
      ['t1', 'task-lock:1', 3_000],
      ['t1', 'task-lock:1', 3_000],
    ]);
    finish();
    await expect(work).resolves.toBe('done');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(renewed).toHaveLength(3);
  });

  it('stops renewing when the work fails, and passes the failure on', async () => {
    let renewals = 0;
    const idempotency = { renew: async () => (renewals++, true) };
    const boom = new Error('graph failed');
    await expect(
      whileHolding(idempotency, { tenantId: 't', key: 'k', leaseMs: 300 }, async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(renewals).toBe(0);
  });

  it('a renewal that fails is tried again at the next tick, never thrown', async () => {
    let calls = 0;
    const idempotency = {
      renew: async () => {
        calls++;
        throw new Error('store down');
      },
    };
    let finish = (): void => {};
    const work = whileHolding(
      idempotency,
      { tenantId: 't', key: 'k', leaseMs: 300 },
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    await vi.advanceTimersByTimeAsync(250);
    expect(calls).toBe(2);
    finish();
    await expect(work).resolves.toBeUndefined();
  });
});
