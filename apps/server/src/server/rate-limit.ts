// Per-tenant rate limits with rate-limiter-flexible. The counters live in our own store (so
// every server process sharing the database shares the limit); an in-memory limiter insures
// against a store outage, as rate-limiter-flexible's `insuranceLimiter` is designed to.
import type { RateLimitRepository } from '@tandem/store';
import { RateLimiterMemory, RateLimiterRes, type IRateLimiterOptions } from 'rate-limiter-flexible';
import { RateLimiterStoreAbstract } from './rate-limiter-store-abstract';

interface StoredCounter {
  consumed: number;
  expiresAtMs: number;
}

/** rate-limiter-flexible store adapter over the store's RateLimitRepository. */
export class StoreRateLimiter extends RateLimiterStoreAbstract {
  private readonly counters: RateLimitRepository;

  constructor(counters: RateLimitRepository, options: IRateLimiterOptions) {
    super({ ...options, storeClient: counters });
    this.counters = counters;
  }

  // The methods below are the abstract hooks rate-limiter-flexible calls.
  async _upsert(
    rlKey: string,
    points: number,
    msDuration: number,
    forceExpire = false,
  ): Promise<StoredCounter> {
    // `forceExpire` (block/set) means "start a fresh window with exactly these points".
    if (forceExpire) await this.counters.delete(rlKey);
    return this.counters.increment(rlKey, points, msDuration);
  }

  async _get(rlKey: string): Promise<StoredCounter | null> {
    return this.counters.get(rlKey);
  }

  async _delete(rlKey: string): Promise<boolean> {
    return this.counters.delete(rlKey);
  }

  _getRateLimiterRes(_rlKey: string, changedPoints: number, result: StoredCounter): RateLimiterRes {
    const consumed = result.consumed;
    return new RateLimiterRes(
      Math.max(this.points - consumed, 0),
      Math.max(result.expiresAtMs - Date.now(), 0),
      consumed,
      consumed === changedPoints,
    );
  }
}

export type RateLimitBucket = 'interact' | 'default';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface RateLimiters {
  consume(bucket: RateLimitBucket, tenantId: string): Promise<RateLimitDecision>;
}

export function createRateLimiters(
  counters: RateLimitRepository,
  perMinute: Record<RateLimitBucket, number>,
): RateLimiters {
  const make = (bucket: RateLimitBucket) => {
    const options = { keyPrefix: `rl:${bucket}`, points: perMinute[bucket], duration: 60 };
    return new StoreRateLimiter(counters, {
      ...options,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  };
  const limiters: Record<RateLimitBucket, StoreRateLimiter> = {
    interact: make('interact'),
    default: make('default'),
  };
  return {
    async consume(bucket, tenantId) {
      const limit = perMinute[bucket];
      try {
        const res = await limiters[bucket].consume(tenantId);
        return { allowed: true, limit, remaining: res.remainingPoints, resetMs: res.msBeforeNext };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          return { allowed: false, limit, remaining: 0, resetMs: rejection.msBeforeNext };
        }
        throw rejection;
      }
    },
  };
}

export function rateLimitHeaders(
  decision: RateLimitDecision,
  nowMs = Date.now(),
): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil((nowMs + decision.resetMs) / 1000)),
  };
  if (!decision.allowed)
    headers['Retry-After'] = String(Math.max(1, Math.ceil(decision.resetMs / 1000)));
  return headers;
}
