// Per-tenant daily caps on model tokens and cost (TENANT_DAILY_TOKEN_LIMIT,
// TENANT_DAILY_COST_LIMIT_USD; OWASP LLM10, unbounded consumption). The spend is read from the
// usage log itself, the same rows billing sums, so the cap and the invoice cannot disagree and
// nothing new is written per model call. A tenant's sum is reused for a few seconds: under load
// that is one aggregate per tenant per interval instead of one per request, and a tenant can
// overshoot its cap by at most what it spends in that interval (plus the request under way).
import type { TokenUsageRepository } from '@tandem/store';
import { formatCount } from '@tandem/contracts';
import { HttpError } from './http-error';

export interface UsageCapLimits {
  /** Tokens per UTC day; 0 = no cap. */
  tokens: number;
  /** Micro-USD per UTC day; 0 = no cap. */
  costMicroUsd: number;
}

export interface UsageCaps {
  /** Throws 429 DAILY_LIMIT_EXCEEDED (Retry-After: until 00:00 UTC) for a tenant past a cap. */
  check(tenantId: string): Promise<void>;
}

interface Spend {
  day: string;
  readAt: number;
  tokens: number;
  costMicroUsd: number;
}

const DAY_MS = 86_400_000;

/** `2025-01-31` (UTC) and the start of the next UTC day, in epoch ms. */
function utcDay(nowMs: number): { day: string; startMs: number; endMs: number } {
  const startMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return { day: new Date(startMs).toISOString().slice(0, 10), startMs, endMs: startMs + DAY_MS };
}

const usd = (micro: number): string => `$${(micro / 1_000_000).toFixed(2)}`;

export function createUsageCaps(options: {
  usage: Pick<TokenUsageRepository, 'rollup'>;
  limits: UsageCapLimits;
  /** How long a tenant's sum is reused (default 5 s). */
  cacheMs?: number;
  now?: () => number;
}): UsageCaps {
  const { limits } = options;
  const cacheMs = options.cacheMs ?? 5_000;
  const now = options.now ?? Date.now;
  // One entry per tenant seen today; yesterday's entries are replaced on their next check.
  const spent = new Map<string, Spend>();
  const pending = new Map<string, Promise<Spend>>();

  async function read(tenantId: string, day: string, startMs: number): Promise<Spend> {
    const rows = await options.usage.rollup(tenantId, {
      from: new Date(startMs).toISOString(),
      groupBy: 'day',
    });
    const spend = { day, readAt: now(), tokens: 0, costMicroUsd: 0 };
    for (const row of rows) {
      spend.tokens += row.totalTokens;
      spend.costMicroUsd += row.costMicroUsd;
    }
    spent.set(tenantId, spend);
    return spend;
  }

  /** Today's spend, from the cache while fresh; concurrent misses share one read. */
  function spendOf(tenantId: string, day: string, startMs: number): Promise<Spend> {
    const cached = spent.get(tenantId);
    if (cached && cached.day === day && now() - cached.readAt < cacheMs) {
      return Promise.resolve(cached);
    }
    const inFlight = pending.get(tenantId);
    if (inFlight) return inFlight;
    const reading = read(tenantId, day, startMs).finally(() => pending.delete(tenantId));
    pending.set(tenantId, reading);
    return reading;
  }

  return {
    async check(tenantId) {
      if (limits.tokens <= 0 && limits.costMicroUsd <= 0) return;
      const at = now();
      const { day, startMs, endMs } = utcDay(at);
      const spend = await spendOf(tenantId, day, startMs);
      const over =
        limits.tokens > 0 && spend.tokens >= limits.tokens
          ? `${formatCount(spend.tokens)} tokens of its ${formatCount(limits.tokens)} a day (TENANT_DAILY_TOKEN_LIMIT)`
          : limits.costMicroUsd > 0 && spend.costMicroUsd >= limits.costMicroUsd
            ? `${usd(spend.costMicroUsd)} of its ${usd(limits.costMicroUsd)} a day (TENANT_DAILY_COST_LIMIT_USD)`
            : null;
      if (over === null) return;
      const retryAfterS = Math.max(1, Math.ceil((endMs - at) / 1000));
      throw new HttpError(
        'DAILY_LIMIT_EXCEEDED',
        `This tenant has used ${over} today (UTC). Requests that use the model are refused until 00:00 UTC, in ${Math.ceil(retryAfterS / 60)} min; an admin can raise the limit.`,
        { headers: { 'Retry-After': String(retryAfterS) } },
      );
    },
  };
}
