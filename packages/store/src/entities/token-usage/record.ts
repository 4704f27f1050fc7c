// Token usage: one log per model call (what it cost), and the rollups the admin pages read.
// Every field of a log is given, so there is no default to build here.
import type { LlmActionType, LlmProvider } from '@tandem/contracts';

export interface TokenUsageLog {
  /** The generation id; appending the same id twice is a no-op (idempotent). */
  id: string;
  /**
   * Null for a model call. For another node's share of a merged call (the plan written by
   * context analysis's call), the id of that call: billed under its own action type, counted
   * as no call of its own.
   */
  partOf: string | null;
  tenantId: string;
  userId: string | null;
  sessionId: string | null;
  messageId: string | null;
  taskId: string | null;
  traceId: string | null;
  provider: LlmProvider;
  model: string;
  actionType: LlmActionType;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  thinkingTokens: number;
  totalTokens: number;
  costMicroUsd: number;
  durationMs: number;
  timestamp: string;
}

export type UsageGroupBy = 'day' | 'model' | 'actionType' | 'user';

export interface UsageRollupRow {
  /** yyyy-mm-dd for day, the model name, the action type or the user id (`""` for none). */
  key: string;
  /** Model calls: logs that are no share of another call (`partOf` null). */
  calls: number;
  inputTokens: number;
  /** The part of `inputTokens` read from the provider's cache. */
  cachedInputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costMicroUsd: number;
}

/** A rollup row split once more: `key` by `groupBy`, `series` by `seriesBy` (same key forms). */
export interface UsageSeriesRow extends UsageRollupRow {
  series: string;
}

/** `partOf` left out: a call of its own. */
export type NewTokenUsageLog = Omit<TokenUsageLog, 'tenantId' | 'partOf'> & {
  partOf?: string | null;
};

export interface TokenUsageRepository {
  /** Append-only. Returns false (and changes nothing) when the id was already logged. */
  append(tenantId: string, input: NewTokenUsageLog): Promise<boolean>;
  /** Oldest first, `from` inclusive, `to` exclusive. */
  list(
    tenantId: string,
    options?: { from?: string; to?: string; taskId?: string; limit?: number },
  ): Promise<TokenUsageLog[]>;
  /** Sums per group, ordered by key. `from` inclusive, `to` exclusive; days are UTC. */
  rollup(
    tenantId: string,
    options: { from?: string; to?: string; groupBy: UsageGroupBy },
  ): Promise<UsageRollupRow[]>;
  /**
   * Sums per (groupBy, seriesBy) pair — e.g. cost per day per action type for a stacked chart —
   * ordered by key then series. Window and key forms as in `rollup`.
   */
  rollupSeries(
    tenantId: string,
    options: { from?: string; to?: string; groupBy: UsageGroupBy; seriesBy: UsageGroupBy },
  ): Promise<UsageSeriesRow[]>;
  /** Sums per task for the given task ids (key = taskId), ordered by key; absent tasks omitted. */
  totalsByTask(tenantId: string, taskIds: readonly string[]): Promise<UsageRollupRow[]>;
}
