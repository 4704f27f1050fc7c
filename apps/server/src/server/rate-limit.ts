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

/**
 * Failed authentications per client address (AUTH_FAILURES_PER_MIN): each failure costs a
 * point, and the failure that reaches the limit blocks the address for `blockSeconds`. A
 * blocked address is refused before its key is looked up, whatever the key; successful
 * requests cost nothing.
 */
export interface AuthFailureLimiter {
  /** The refusal for a blocked address (Retry-After until the block ends), else null. */
  blocked(address: string): Promise<RateLimitDecision | null>;
  /** Counts one failed authentication of the address. */
  fail(address: string): Promise<void>;
}

export function createAuthFailureLimiter(
  counters: RateLimitRepository,
  options: { perMinute: number; blockSeconds: number },
): AuthFailureLimiter {
  const settings = { keyPrefix: 'rl:auth-failures', points: options.perMinute, duration: 60 };
  const limiter = new StoreRateLimiter(counters, {
    ...settings,
    insuranceLimiter: new RateLimiterMemory(settings),
  });
  return {
    async blocked(address) {
      const res = await limiter.get(address);
      if (res === null || res.consumedPoints < options.perMinute) return null;
      return { allowed: false, limit: options.perMinute, remaining: 0, resetMs: res.msBeforeNext };
    },
    async fail(address) {
      const res = await limiter.consume(address).catch((rejection: unknown) => {
        // Past the limit (failures racing the block): the block below is already under way.
        if (rejection instanceof RateLimiterRes) return rejection;
        throw rejection;
      });
      // The failure that reaches the limit starts the block (the window's end would be too soon).
      if (res.consumedPoints === options.perMinute) {
        await limiter.block(address, options.blockSeconds);
      }
    },
  };
}
