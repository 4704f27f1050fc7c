// Idempotency keys (a replayed request gets the first one's response) and rate-limit windows.
import { isoPlusMs } from '../../shared';

export interface IdempotencyRecord {
  tenantId: string;
  key: string;
  /** What the key protects ("interact", "collect"…). */
  scope: string;
  /** Hash of the request body: a replay with another body is a conflict. */
  requestHash: string;
  status: 'in_progress' | 'completed';
  response: unknown;
  createdAt: string;
  expiresAt: string;
}

export interface IdempotencyRepository {
  /** Claims a key. Throws DuplicateKeyError if (tenant, key) already exists and has not expired. */
  begin(
    tenantId: string,
    input: { key: string; scope: string; requestHash: string; ttlMs: number },
    now?: string,
  ): Promise<IdempotencyRecord>;
  /** Null when the key is unknown or its claim has expired. */
  get(tenantId: string, key: string): Promise<IdempotencyRecord | null>;
  /**
   * Extends a live in-progress claim to `now + ttlMs` (a lease its holder keeps renewing, so a
   * holder that died frees the key within one lease). False when the claim is gone, expired or
   * completed, or (with `requestHash`) is another holder's: the holder has lost it.
   */
  renew(
    tenantId: string,
    key: string,
    ttlMs: number,
    options?: { now?: string; requestHash?: string },
  ): Promise<boolean>;
  /**
   * Stores the response and marks the claim completed; with `ttlMs`, the completed record is
   * kept until `now + ttlMs` (the replay window), else until the claim's own expiry.
   */
  complete(
    tenantId: string,
    key: string,
    response: unknown,
    options?: { ttlMs?: number; now?: string },
  ): Promise<IdempotencyRecord | null>;
  /**
   * Releases a claim whose request failed, so the client may retry with the same key. With
   * `requestHash`, only a claim made with it (an owned lease: never one taken since by another
   * owner), in the same statement.
   */
  release(tenantId: string, key: string, options?: { requestHash?: string }): Promise<boolean>;
}

/** Counters for the store-backed rate limiter (keys already carry the tenant). */
export interface RateLimitRepository {
  /**
   * Adds `points` to the counter `key`, starting a new window of `durationMs` if the previous
   * one ended. Returns the points consumed in the current window and when it ends (epoch ms).
   */
  increment(
    key: string,
    points: number,
    durationMs: number,
    nowMs?: number,
  ): Promise<{ consumed: number; expiresAtMs: number }>;
  get(key: string, nowMs?: number): Promise<{ consumed: number; expiresAtMs: number } | null>;
  delete(key: string): Promise<boolean>;
}

// The repository declares this input inline; named here so the builder reads.
export type NewIdempotencyClaim = Parameters<IdempotencyRepository['begin']>[1];

/** A fresh claim: in progress, no response yet, live for `ttlMs` from `now`. */
export function newIdempotencyRecord(
  tenantId: string,
  input: NewIdempotencyClaim,
  now: string,
): IdempotencyRecord {
  return {
    tenantId,
    key: input.key,
    scope: input.scope,
    requestHash: input.requestHash,
    status: 'in_progress',
    response: null,
    createdAt: now,
    expiresAt: isoPlusMs(now, input.ttlMs),
  };
}
