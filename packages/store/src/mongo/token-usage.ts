// Token usage: an append-only billing log keyed by generation id, summed by an aggregation
// pipeline ($group on the UTC day, model, action type or user).
import type { PipelineStage } from 'mongoose';
import type {
  TokenUsageLog,
  TokenUsageRepository,
  UsageGroupBy,
  UsageRollupRow,
  UsageSeriesRow,
} from '../port';
import { clampLimit } from '../shared';
import type { TokenUsageDoc } from './documents';
import type { MongoModels } from './schemas';
import { iso, isMongoDuplicateKey, orNull, toDate } from './util';

const toLog = (doc: TokenUsageDoc): TokenUsageLog => ({
  id: doc.id,
  tenantId: doc.tenantId,
  userId: orNull(doc.userId),
  sessionId: orNull(doc.sessionId),
  messageId: orNull(doc.messageId),
  taskId: orNull(doc.taskId),
  traceId: orNull(doc.traceId),
  provider: doc.provider,
  model: doc.model,
  actionType: doc.actionType,
  inputTokens: doc.inputTokens,
  outputTokens: doc.outputTokens,
  cachedInputTokens: doc.cachedInputTokens,
  thinkingTokens: doc.thinkingTokens,
  totalTokens: doc.totalTokens,
  costMicroUsd: doc.costMicroUsd,
  durationMs: doc.durationMs,
  timestamp: iso(doc.timestamp),
});

/**
 * The expression each grouping sums by. $dateToString formats in UTC when given no timezone
 * (whatever the server's own zone), which is the day the port means.
 */
const GROUP_KEYS: Record<UsageGroupBy, unknown> = {
  day: { $dateToString: { format: '%Y-%m-%d', date: '$timestamp' } },
  model: '$model',
  actionType: '$actionType',
  user: { $ifNull: ['$userId', ''] },
};

function windowFilter(
  tenantId: string,
  options: { from?: string; to?: string },
): Record<string, unknown> {
  const timestamp: Record<string, Date> = {};
  if (options.from !== undefined) timestamp.$gte = toDate(options.from);
  if (options.to !== undefined) timestamp.$lt = toDate(options.to);
  return Object.keys(timestamp).length > 0 ? { tenantId, timestamp } : { tenantId };
}

interface RollupGroup {
  _id: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costMicroUsd: number;
}

const SUMS = {
  calls: { $sum: 1 },
  inputTokens: { $sum: '$inputTokens' },
  outputTokens: { $sum: '$outputTokens' },
  totalTokens: { $sum: '$totalTokens' },
  costMicroUsd: { $sum: '$costMicroUsd' },
} as const;

interface SeriesGroup extends Omit<RollupGroup, '_id'> {
  _id: { key: string; series: string };
}

const sums = (group: Omit<RollupGroup, '_id'>): Omit<UsageRollupRow, 'key'> => ({
  calls: group.calls,
  inputTokens: group.inputTokens,
  outputTokens: group.outputTokens,
  totalTokens: group.totalTokens,
  costMicroUsd: group.costMicroUsd,
});

export function mongoTokenUsage({ tokenUsage }: MongoModels): TokenUsageRepository {
  return {
    async append(tenantId, input) {
      const doc: TokenUsageDoc = {
        id: input.id,
        tenantId,
        userId: input.userId,
        sessionId: input.sessionId,
        messageId: input.messageId,
        taskId: input.taskId,
        traceId: input.traceId,
        provider: input.provider,
        model: input.model,
        actionType: input.actionType,
        inputTokens: input.inputTokens,
        outputTokens: input.outputTokens,
        cachedInputTokens: input.cachedInputTokens,
        thinkingTokens: input.thinkingTokens,
        totalTokens: input.totalTokens,
        costMicroUsd: input.costMicroUsd,
        durationMs: input.durationMs,
        timestamp: toDate(input.timestamp),
      };
      try {
        await tokenUsage.create(doc);
        return true;
      } catch (error) {
        // The unique id index is what makes a retried dual-write a no-op.
        if (isMongoDuplicateKey(error)) return false;
        throw error;
      }
    },
    async list(tenantId, options = {}) {
      const filter = windowFilter(tenantId, options);
      if (options.taskId !== undefined) filter.taskId = options.taskId;
      const docs = await tokenUsage
        .find(filter)
        .sort({ timestamp: 1, _id: 1 })
        .limit(clampLimit(options.limit, 1000, 10_000))
        .lean()
        .exec();
      return docs.map(toLog);
    },
    async rollup(tenantId, options) {
      const pipeline: PipelineStage[] = [
        { $match: windowFilter(tenantId, options) },
        {
          $group: {
            _id: GROUP_KEYS[options.groupBy],
            calls: { $sum: 1 },
            inputTokens: { $sum: '$inputTokens' },
            outputTokens: { $sum: '$outputTokens' },
            totalTokens: { $sum: '$totalTokens' },
            costMicroUsd: { $sum: '$costMicroUsd' },
          },
        },
        { $sort: { _id: 1 } },
      ];
      const groups = await tokenUsage.aggregate<RollupGroup>(pipeline).exec();
      return groups.map((group): UsageRollupRow => ({
        key: group._id,
        calls: group.calls,
        inputTokens: group.inputTokens,
        outputTokens: group.outputTokens,
        totalTokens: group.totalTokens,
        costMicroUsd: group.costMicroUsd,
      }));
    },
    async rollupSeries(tenantId, options) {
      const pipeline: PipelineStage[] = [
        { $match: windowFilter(tenantId, options) },
        {
          $group: {
            _id: { key: GROUP_KEYS[options.groupBy], series: GROUP_KEYS[options.seriesBy] },
            ...SUMS,
          },
        },
        { $sort: { '_id.key': 1, '_id.series': 1 } },
      ];
      const groups = await tokenUsage.aggregate<SeriesGroup>(pipeline).exec();
      return groups.map((group): UsageSeriesRow => ({
        key: group._id.key,
        series: group._id.series,
        ...sums(group),
      }));
    },
    async totalsByTask(tenantId, taskIds) {
      if (taskIds.length === 0) return [];
      const pipeline: PipelineStage[] = [
        // Served by the (tenantId, taskId, timestamp) index.
        { $match: { tenantId, taskId: { $in: [...new Set(taskIds)] } } },
        { $group: { _id: '$taskId', ...SUMS } },
        { $sort: { _id: 1 } },
      ];
      const groups = await tokenUsage.aggregate<RollupGroup>(pipeline).exec();
      return groups.map((group): UsageRollupRow => ({ key: group._id, ...sums(group) }));
    },
  };
}
