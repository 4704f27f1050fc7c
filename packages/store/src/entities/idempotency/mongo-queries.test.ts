// Idempotency claims and rate-limit counters, evaluated by mingo (the counter's update is an
// aggregation pipeline: $cond, $ifNull, $toDate).
import { describe, expect, it } from 'vitest';
import type { IdempotencyRecord } from './record';
import type { IdempotencyDoc, RateLimitDoc } from './mongo-schema';
import {
  claimFilter,
  claimUpdate,
  completeClaimUpdate,
  counterFilter,
  liveClaimFilter,
  liveCounterFilter,
  rateLimitIncrement,
  renewClaimUpdate,
} from './mongo-queries';
import { MingoCollection } from '../../mongo/queries/mingo-collection';

const T0 = new Date('2025-06-01T00:00:00Z');
const plus = (ms: number) => new Date(T0.getTime() + ms);

function claim(
  key: string,
  expiresAt: Date,
  over: Partial<IdempotencyRecord> = {},
): IdempotencyRecord {
  return {
    tenantId: 't1',
    key,
    scope: 'interact',
    requestHash: 'h1',
    status: 'in_progress',
    response: null,
    createdAt: T0.toISOString(),
    expiresAt: expiresAt.toISOString(),
    ...over,
  };
}

describe('idempotency claims', () => {
  it('a new key is inserted; a live claim is not matched (the unique index refuses the insert); an expired one is replaced', () => {
    const claims = new MingoCollection<IdempotencyDoc>();
    const first = claims.findOneAndUpdate(claimUpdate(claim('k', plus(60_000)), T0));
    expect(first).toMatchObject({
      tenantId: 't1',
      key: 'k',
      status: 'in_progress',
      expiresAt: plus(60_000),
    });
    // Live: the filter matches nothing, so the server would try to insert a second (t1, k).
    const live = claimUpdate(claim('k', plus(120_000), { requestHash: 'h2' }), plus(1_000));
    expect(claims.findOne({ filter: live.filter })).toBeNull();
    // Expired: replaced in place.
    const later = plus(61_000);
    const again = claims.findOneAndUpdate(
      claimUpdate(claim('k', plus(200_000), { requestHash: 'h3' }), later),
    );
    expect(again).toMatchObject({ requestHash: 'h3', expiresAt: plus(200_000) });
    expect(claims.docs).toHaveLength(1);
  });

  it('reads only live claims; renews only live in-progress ones; completes and releases', () => {
    const claims = new MingoCollection<IdempotencyDoc>();
    claims.findOneAndUpdate(claimUpdate(claim('k', plus(60_000)), T0));
    expect(claims.findOne({ filter: liveClaimFilter('t1', 'k', plus(59_999)) })).not.toBeNull();
    expect(claims.findOne({ filter: liveClaimFilter('t1', 'k', plus(60_000)) })).toBeNull();
    expect(claims.findOne({ filter: liveClaimFilter('t2', 'k', T0) })).toBeNull();

    expect(claims.updateMany(renewClaimUpdate('t1', 'k', 30_000, plus(50_000))).modifiedCount).toBe(
      1,
    );
    expect(claims.docs[0]?.expiresAt).toEqual(plus(80_000));
    const done = claims.findOneAndUpdate(
      completeClaimUpdate(
        't1',
        'k',
        { ok: true, skip: undefined },
        { at: plus(51_000), ttlMs: 10_000 },
      ),
    );
    expect(done).toMatchObject({
      status: 'completed',
      response: { ok: true },
      expiresAt: plus(61_000),
    });
    // Completed: no longer renewed.
    expect(claims.updateMany(renewClaimUpdate('t1', 'k', 30_000, plus(52_000))).modifiedCount).toBe(
      0,
    );
    expect(claims.deleteMany(claimFilter('t1', 'k'))).toBe(1);
  });

  it("renews and releases an owned lease only with its owner's hash", () => {
    const claims = new MingoCollection<IdempotencyDoc>();
    claims.findOneAndUpdate(claimUpdate(claim('k', plus(60_000), { requestHash: 'run-1' }), T0));
    const renew = (owner: string) =>
      claims.updateMany(renewClaimUpdate('t1', 'k', 30_000, plus(10_000), owner)).modifiedCount;
    expect(renew('run-2')).toBe(0);
    expect(renew('run-1')).toBe(1);
    expect(claims.deleteMany(claimFilter('t1', 'k', 'run-2'))).toBe(0);
    expect(claims.deleteMany(claimFilter('t1', 'k', 'run-1'))).toBe(1);
  });
});

describe('rate-limit counters (pipeline update)', () => {
  it('starts a window on the first hit, adds within it, starts over once it ended', () => {
    const counters = new MingoCollection<RateLimitDoc>();
    const hit = (points: number, nowMs: number) =>
      counters.findOneAndUpdate(rateLimitIncrement('rl:t1', points, 60_000, nowMs));
    const t = T0.getTime();
    expect(hit(1, t)).toMatchObject({
      key: 'rl:t1',
      consumed: 1,
      expiresAtMs: t + 60_000,
      expiresAt: plus(60_000),
    });
    expect(hit(2, t + 59_999)).toMatchObject({ consumed: 3, expiresAtMs: t + 60_000 });
    expect(hit(1, t + 60_000)).toMatchObject({
      consumed: 1,
      expiresAtMs: t + 120_000,
      expiresAt: plus(120_000),
    });
    expect(counters.docs).toHaveLength(1);
    expect(counters.findOne({ filter: liveCounterFilter('rl:t1', t + 119_999) })).not.toBeNull();
    expect(counters.findOne({ filter: liveCounterFilter('rl:t1', t + 120_000) })).toBeNull();
    expect(counters.deleteMany(counterFilter('rl:t1'))).toBe(1);
  });
});
