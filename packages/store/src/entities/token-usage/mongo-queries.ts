// Query documents of the token usage log: its window filter and the billing pipelines.
import type { UsageGroupBy } from './record';
import { toDate } from '../../mongo/queries/cursor';
import type { Filter, FindSpec, Pipeline } from '../../mongo/queries/spec';

/**
 * The expression each grouping sums by. $dateToString formats in UTC when given no timezone
 * (whatever the server's own zone), which is the day the port means.
 */
export const GROUP_KEYS: Record<UsageGroupBy, unknown> = {
  day: { $dateToString: { format: '%Y-%m-%d', date: '$timestamp' } },
  model: '$model',
  actionType: '$actionType',
  user: { $ifNull: ['$userId', ''] },
};

const SUMS = {
  // A share of another call is no call; logs from before `partOf` existed lack it: calls.
  calls: { $sum: { $cond: [{ $ifNull: ['$partOf', false] }, 0, 1] } },
  inputTokens: { $sum: '$inputTokens' },
  cachedInputTokens: { $sum: '$cachedInputTokens' },
  outputTokens: { $sum: '$outputTokens' },
  totalTokens: { $sum: '$totalTokens' },
  costMicroUsd: { $sum: '$costMicroUsd' },
} as const;

export interface UsageWindow {
  from?: string;
  to?: string;
}

/** The tenant's rows in [from, to). */
export function usageWindowFilter(tenantId: string, options: UsageWindow): Filter {
  const timestamp: Record<string, Date> = {};
  if (options.from !== undefined) timestamp.$gte = toDate(options.from);
  if (options.to !== undefined) timestamp.$lt = toDate(options.to);
  return Object.keys(timestamp).length > 0 ? { tenantId, timestamp } : { tenantId };
}

export function usageListQuery(
  tenantId: string,
  options: UsageWindow & { taskId?: string },
  limit: number,
): FindSpec {
  const filter = usageWindowFilter(tenantId, options);
  if (options.taskId !== undefined) filter.taskId = options.taskId;
  return { filter, sort: { timestamp: 1, _id: 1 }, limit };
}

/** Sums per group (`_id` = the key), ordered by key. */
export function usageRollupPipeline(
  tenantId: string,
  options: UsageWindow & { groupBy: UsageGroupBy },
): Pipeline {
  return [
    { $match: usageWindowFilter(tenantId, options) },
    { $group: { _id: GROUP_KEYS[options.groupBy], ...SUMS } },
    { $sort: { _id: 1 } },
  ];
}

/** Sums per (key, series) pair, ordered by key then series. */
export function usageSeriesPipeline(
  tenantId: string,
  options: UsageWindow & { groupBy: UsageGroupBy; seriesBy: UsageGroupBy },
): Pipeline {
  return [
    { $match: usageWindowFilter(tenantId, options) },
    {
      $group: {
        _id: { key: GROUP_KEYS[options.groupBy], series: GROUP_KEYS[options.seriesBy] },
        ...SUMS,
      },
    },
    { $sort: { '_id.key': 1, '_id.series': 1 } },
  ];
}

/** Sums per task of the given ids (served by the (tenantId, taskId, timestamp) index). */
export function usageByTaskPipeline(tenantId: string, taskIds: readonly string[]): Pipeline {
  return [
    { $match: { tenantId, taskId: { $in: [...new Set(taskIds)] } } },
    { $group: { _id: '$taskId', ...SUMS } },
    { $sort: { _id: 1 } },
  ];
}
