// Billing reports from the TokenUsageLog (the source of truth for invoices): sums in integer
// micro-USD straight from the store's GROUP BY, then dollars as exact decimal strings.
import {
  LlmActionType,
  microUsdToUsd,
  type BillingAmounts,
  type BillingGroupBy,
  type BillingResponse,
  type ReportWindow,
} from '@tandem/contracts';
import type { Store, UsageRollupRow } from '@tandem/store';
import { daysOf } from './window';

export type UsageSums = Omit<UsageRollupRow, 'key'>;

export const ZERO_SUMS: UsageSums = Object.freeze({
  calls: 0,
  inputTokens: 0,
  cachedInputTokens: 0,
  outputTokens: 0,
  totalTokens: 0,
  costMicroUsd: 0,
});

export function addSums(a: UsageSums, b: UsageSums): UsageSums {
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    costMicroUsd: a.costMicroUsd + b.costMicroUsd,
  };
}

export function withUsd(sums: UsageSums): BillingAmounts {
  return {
    calls: sums.calls,
    inputTokens: sums.inputTokens,
    cachedInputTokens: sums.cachedInputTokens,
    outputTokens: sums.outputTokens,
    totalTokens: sums.totalTokens,
    costMicroUsd: sums.costMicroUsd,
    costUsd: microUsdToUsd(sums.costMicroUsd),
  };
}

export type BillingStore = Pick<Store, 'tokenUsage'>;

export async function billingReport(
  store: BillingStore,
  tenantId: string,
  input: { window: ReportWindow; groupBy: BillingGroupBy },
): Promise<BillingResponse> {
  const rows = await store.tokenUsage.rollup(tenantId, { ...input.window, groupBy: input.groupBy });
  const totals = rows.reduce<UsageSums>((sum, row) => addSums(sum, row), ZERO_SUMS);
  return {
    window: input.window,
    groupBy: input.groupBy,
    currency: 'USD',
    rows: rows.map((row) => ({ key: row.key, ...withUsd(row) })),
    totals: withUsd(totals),
  };
}

/** Daily cost split by action type: one value per day of the window for each series. */
export interface DailyCostChart {
  days: string[];
  /** Action types with any cost or call in the window, in the enum's (pipeline) order. */
  series: { actionType: string; costMicroUsd: number[]; calls: number[] }[];
  dayTotalsMicroUsd: number[];
}

export async function dailyCostByActionType(
  store: BillingStore,
  tenantId: string,
  window: ReportWindow,
): Promise<DailyCostChart> {
  const rows = await store.tokenUsage.rollupSeries(tenantId, {
    ...window,
    groupBy: 'day',
    seriesBy: 'actionType',
  });
  const days = daysOf(window);
  const dayIndex = new Map(days.map((day, i) => [day, i]));
  const byType = new Map<string, { costMicroUsd: number[]; calls: number[] }>();
  const dayTotalsMicroUsd = days.map(() => 0);
  for (const row of rows) {
    const i = dayIndex.get(row.key);
    if (i === undefined) continue;
    const entry = byType.get(row.series) ?? {
      costMicroUsd: days.map(() => 0),
      calls: days.map(() => 0),
    };
    entry.costMicroUsd[i] = (entry.costMicroUsd[i] ?? 0) + row.costMicroUsd;
    entry.calls[i] = (entry.calls[i] ?? 0) + row.calls;
    dayTotalsMicroUsd[i] = (dayTotalsMicroUsd[i] ?? 0) + row.costMicroUsd;
    byType.set(row.series, entry);
  }
  const order = LlmActionType.options as readonly string[];
  const rank = (type: string): number => {
    const i = order.indexOf(type);
    return i === -1 ? order.length : i;
  };
  const series = [...byType]
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([actionType, values]) => ({ actionType, ...values }));
  return { days, series, dayTotalsMicroUsd };
}
