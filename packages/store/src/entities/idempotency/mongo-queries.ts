// Query documents of idempotency claims and rate-limit counters: each is one atomic
// findOneAndUpdate, so the check and the write happen together.
import type { IdempotencyRecord } from './record';
import { jsonValue } from '../../mongo/queries/json';
import { toDate } from '../../mongo/queries/cursor';
import type { Filter, UpdateSpec } from '../../mongo/queries/spec';

/**
 * Claims a key. Matches only an expired claim, which is replaced in place. With no claim at
 * all the upsert inserts; with a live one it also tries to insert and the unique
 * (tenantId, key) index refuses: that refusal is the "already claimed" answer.
 */
export function claimUpdate(claim: IdempotencyRecord, at: Date): UpdateSpec {
  return {
    filter: { tenantId: claim.tenantId, key: claim.key, expiresAt: { $lte: at } },
    update: {
      $set: {
        scope: claim.scope,
        requestHash: claim.requestHash,
        status: claim.status,
        response: jsonValue(claim.response),
        createdAt: toDate(claim.createdAt),
        expiresAt: toDate(claim.expiresAt),
      },
    },
    upsert: true,
  };
}

/** A claim that has not expired (the TTL monitor deletes expired ones only once a minute). */
export const liveClaimFilter = (tenantId: string, key: string, now: Date): Filter => ({
  tenantId,
  key,
  expiresAt: { $gt: now },
});

/** Extends a live in-progress claim (the request holding it is still working), `requestHash`'s only when given. */
export function renewClaimUpdate(
  tenantId: string,
  key: string,
  ttlMs: number,
  at: Date,
  requestHash?: string,
): UpdateSpec {
  return {
    filter: {
      tenantId,
      key,
      status: 'in_progress',
      expiresAt: { $gt: at },
      ...(requestHash === undefined ? {} : { requestHash }),
    },
    update: { $set: { expiresAt: new Date(at.getTime() + ttlMs) } },
  };
}

export function completeClaimUpdate(
  tenantId: string,
  key: string,
  response: unknown,
  options: { ttlMs?: number; at: Date },
): UpdateSpec {
  const set: Record<string, unknown> = { status: 'completed', response: jsonValue(response) };
  if (options.ttlMs !== undefined) set.expiresAt = new Date(options.at.getTime() + options.ttlMs);
  return { filter: { tenantId, key }, update: { $set: set } };
}

/** A claim by key, only `requestHash`'s when given (an owned lease). */
export const claimFilter = (tenantId: string, key: string, requestHash?: string): Filter => ({
  tenantId,
  key,
  ...(requestHash === undefined ? {} : { requestHash }),
});

/**
 * Adds `points` to a counter in its window, or starts a new window when the old one ended. One
 * pipeline update: every expression in a $set stage reads the document as it was before the
 * stage, so all three fields agree on whether the old window had ended. On the upsert's first
 * insert the fields are missing, which counts as "ended".
 */
export function rateLimitIncrement(
  key: string,
  points: number,
  durationMs: number,
  nowMs: number,
): UpdateSpec {
  const ended = { $lte: [{ $ifNull: ['$expiresAtMs', 0] }, nowMs] };
  const expiresAtMs = { $cond: [ended, nowMs + durationMs, '$expiresAtMs'] };
  return {
    filter: { key },
    update: [
      {
        $set: {
          consumed: { $cond: [ended, points, { $add: ['$consumed', points] }] },
          expiresAtMs,
          expiresAt: { $toDate: expiresAtMs },
        },
      },
    ],
    upsert: true,
  };
}

export const counterFilter = (key: string): Filter => ({ key });

export const liveCounterFilter = (key: string, nowMs: number): Filter => ({
  key,
  expiresAtMs: { $gt: nowMs },
});
