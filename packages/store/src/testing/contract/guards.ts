// Idempotency claims and rate-limit counters: the two places where "exactly once" and
// "at most N" must hold under concurrency.
import { describe, expect, it } from 'vitest';
import { DuplicateKeyError } from '../../port';
import { isoAt, newTenant, uniq, useStore, type MakeStore } from './harness';

const claim = (key: string, ttlMs = 60_000) => ({
  key,
  scope: 'interact',
  requestHash: 'hash-1',
  ttlMs,
});

export function guardsContract(makeStore: MakeStore): void {
  describe('idempotency', () => {
    const store = useStore(makeStore);

    it('claims a key and rejects a second begin with DuplicateKeyError', async () => {
      const tenantId = await newTenant(store());
      const key = uniq('idem');
      const now = Date.now();
      const record = await store().idempotency.begin(tenantId, claim(key), isoAt(now));
      expect(record).toEqual({
        tenantId,
        key,
        scope: 'interact',
        requestHash: 'hash-1',
        status: 'in_progress',
        response: null,
        createdAt: isoAt(now),
        expiresAt: isoAt(now + 60_000),
      });
      expect(await store().idempotency.get(tenantId, key)).toEqual(record);
      await expect(
        store().idempotency.begin(tenantId, { ...claim(key), requestHash: 'other' }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      // The claim is untouched by the rejected attempt.
      expect(await store().idempotency.get(tenantId, key)).toEqual(record);
      // Keys are per tenant.
      await expect(
        store().idempotency.begin(await newTenant(store()), claim(key)),
      ).resolves.toMatchObject({ key, status: 'in_progress' });
    });

    it('lets exactly one of concurrent begins win', async () => {
      const tenantId = await newTenant(store());
      const key = uniq('idem');
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => store().idempotency.begin(tenantId, claim(key))),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DuplicateKeyError);
      }
    });

    it('completes with a response and still rejects replays', async () => {
      const tenantId = await newTenant(store());
      const key = uniq('idem');
      await store().idempotency.begin(tenantId, claim(key));
      const response = { action: 'click(3)', usage: { inputTokens: 5 }, list: [1, 'two', null] };
      const done = await store().idempotency.complete(tenantId, key, response);
      expect(done).toMatchObject({ key, status: 'completed', response });
      expect(await store().idempotency.get(tenantId, key)).toEqual(done);
      await expect(store().idempotency.begin(tenantId, claim(key))).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect(await store().idempotency.complete(tenantId, uniq('missing'), {})).toBeNull();
      expect(await store().idempotency.get(tenantId, uniq('missing'))).toBeNull();
    });

    it('renews a live in-progress claim as a lease, and only while it is held', async () => {
      const tenantId = await newTenant(store());
      const key = uniq('lease');
      const now = Date.now();
      await store().idempotency.begin(tenantId, claim(key, 30_000), isoAt(now));
      expect(
        await store().idempotency.renew(tenantId, key, 30_000, { now: isoAt(now + 20_000) }),
      ).toBe(true);
      expect((await store().idempotency.get(tenantId, key))?.expiresAt).toBe(isoAt(now + 50_000));
      // A lease that ran out is lost: its holder died, another may claim the key.
      expect(
        await store().idempotency.renew(tenantId, key, 30_000, { now: isoAt(now + 60_000) }),
      ).toBe(false);
      expect(await store().idempotency.renew(tenantId, uniq('missing'), 30_000)).toBe(false);
      // A completed claim is not a lease any more.
      const done = uniq('lease');
      await store().idempotency.begin(tenantId, claim(done));
      await store().idempotency.complete(tenantId, done, { ok: true });
      expect(await store().idempotency.renew(tenantId, done, 30_000)).toBe(false);
      // Leases are per tenant.
      expect(await store().idempotency.renew(await newTenant(store()), key, 30_000)).toBe(false);
    });

    it('renews and releases an owned lease only for its owner, in one statement', async () => {
      const tenantId = await newTenant(store());
      const key = uniq('owned');
      const now = Date.now();
      // claim() holds with requestHash 'hash-1': the owner.
      await store().idempotency.begin(tenantId, claim(key, 30_000), isoAt(now));
      const at = { now: isoAt(now + 10_000) };
      expect(
        await store().idempotency.renew(tenantId, key, 30_000, { ...at, requestHash: 'other' }),
      ).toBe(false);
      expect(
        await store().idempotency.renew(tenantId, key, 30_000, { ...at, requestHash: 'hash-1' }),
      ).toBe(true);
      expect(await store().idempotency.release(tenantId, key, { requestHash: 'other' })).toBe(
        false,
      );
      expect(await store().idempotency.get(tenantId, key)).toMatchObject({ requestHash: 'hash-1' });
      expect(await store().idempotency.release(tenantId, key, { requestHash: 'hash-1' })).toBe(
        true,
      );
      expect(await store().idempotency.get(tenantId, key)).toBeNull();
    });

    it('keeps a completed response for the replay window it is given', async () => {
      const tenantId = await newTenant(store());
      const key = uniq('idem');
      const now = Date.now();
      await store().idempotency.begin(tenantId, claim(key, 30_000), isoAt(now));
      const done = await store().idempotency.complete(
        tenantId,
        key,
        { answer: 1 },
        { ttlMs: 600_000, now: isoAt(now + 1_000) },
      );
      expect(done).toMatchObject({ status: 'completed', expiresAt: isoAt(now + 601_000) });
      expect(await store().idempotency.get(tenantId, key)).toEqual(done);
    });

    it('releases a failed claim so the key can be retried', async () => {
      const tenantId = await newTenant(store());
      const key = uniq('idem');
      await store().idempotency.begin(tenantId, claim(key));
      expect(await store().idempotency.release(tenantId, key)).toBe(true);
      expect(await store().idempotency.get(tenantId, key)).toBeNull();
      await expect(store().idempotency.begin(tenantId, claim(key))).resolves.toMatchObject({
        status: 'in_progress',
      });
      expect(await store().idempotency.release(tenantId, uniq('missing'))).toBe(false);
    });

    it('treats an expired claim as gone and lets it be replaced', async () => {
      const tenantId = await newTenant(store());
      const key = uniq('idem');
      const longAgo = Date.now() - 60 * 60 * 1000;
      await store().idempotency.begin(tenantId, claim(key, 1000), isoAt(longAgo));
      expect(await store().idempotency.get(tenantId, key)).toBeNull();
      const fresh = await store().idempotency.begin(tenantId, { ...claim(key), requestHash: 'h2' });
      expect(fresh).toMatchObject({ status: 'in_progress', requestHash: 'h2', response: null });
      expect(await store().idempotency.get(tenantId, key)).toEqual(fresh);
    });
  });

  describe('rateLimits', () => {
    const store = useStore(makeStore);

    it('counts points in a window and starts a new window after it ends', async () => {
      const key = uniq('rl:tenant:interact');
      const t0 = Date.now();
      expect(await store().rateLimits.get(key, t0)).toBeNull();
      expect(await store().rateLimits.increment(key, 1, 1000, t0)).toEqual({
        consumed: 1,
        expiresAtMs: t0 + 1000,
      });
      expect(await store().rateLimits.increment(key, 3, 1000, t0 + 500)).toEqual({
        consumed: 4,
        expiresAtMs: t0 + 1000,
      });
      expect(await store().rateLimits.get(key, t0 + 999)).toEqual({
        consumed: 4,
        expiresAtMs: t0 + 1000,
      });
      expect(await store().rateLimits.get(key, t0 + 1000)).toBeNull();
      expect(await store().rateLimits.increment(key, 2, 1000, t0 + 1000)).toEqual({
        consumed: 2,
        expiresAtMs: t0 + 2000,
      });
    });

    it('is atomic under concurrent increments', async () => {
      const key = uniq('rl:tenant:burst');
      const now = Date.now();
      await Promise.all(
        Array.from({ length: 20 }, () => store().rateLimits.increment(key, 1, 60_000, now)),
      );
      expect((await store().rateLimits.get(key, now))?.consumed).toBe(20);
    });

    it('deletes a counter', async () => {
      const key = uniq('rl:tenant:x');
      await store().rateLimits.increment(key, 1, 60_000);
      expect((await store().rateLimits.get(key))?.consumed).toBe(1);
      expect(await store().rateLimits.delete(key)).toBe(true);
      expect(await store().rateLimits.get(key)).toBeNull();
      expect(await store().rateLimits.delete(key)).toBe(false);
    });
  });
}
