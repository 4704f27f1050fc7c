// Token usage: an append-only billing log keyed by generation id, summed by an aggregation
// pipeline ($group on the UTC day, model, action type or user).
import type { TokenUsageLog, TokenUsageRepository, UsageRollupRow, UsageSeriesRow } from './record';
import { clampLimit } from '../../shared';
import type { TokenUsageDoc } from './mongo-schema';
import {
  usageByTaskPipeline,
  usageListQuery,
  usageRollupPipeline,
  usageSeriesPipeline,
} from './mongo-queries';
import type { MongoModels } from '../../mongo/schemas';
import { iso, isMongoDuplicateKey, orNull, toDate } from '../../mongo/util';

const toLog = (doc: TokenUsageDoc): TokenUsageLog => ({
  id: doc.id,
  partOf: orNull(doc.partOf),
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

interface RollupGroup {
  _id: string;
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costMicroUsd: number;
}

interface SeriesGroup extends Omit<RollupGroup, '_id'> {
  _id: { key: string; series: string };
}

const sums = (group: Omit<RollupGroup, '_id'>): Omit<UsageRollupRow, 'key'> => ({
  calls: group.calls,
  inputTokens: group.inputTokens,
  cachedInputTokens: group.cachedInputTokens,
  outputTokens: group.outputTokens,
  totalTokens: group.totalTokens,
  costMicroUsd: group.costMicroUsd,
});

export function mongoTokenUsage({ tokenUsage }: MongoModels): TokenUsageRepository {
  return {
    async append(tenantId, input) {
      const doc: TokenUsageDoc = {
        id: input.id,
        partOf: input.partOf ?? null,
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
      const query = usageListQuery(tenantId, options, clampLimit(options.limit, 1000, 10_000));
      const docs = await tokenUsage
        .find(query.filter)
        .sort(query.sort)
        .limit(query.limit ?? 1000)
        .lean()
        .exec();
      return docs.map(toLog);
    },
    async rollup(tenantId, options) {
      const pipeline = usageRollupPipeline(tenantId, options);
      const groups = await tokenUsage.aggregate<RollupGroup>(pipeline).exec();
      return groups.map((group): UsageRollupRow => ({ key: group._id, ...sums(group) }));
    },
    async rollupSeries(tenantId, options) {
      const pipeline = usageSeriesPipeline(tenantId, options);
      const groups = await tokenUsage.aggregate<SeriesGroup>(pipeline).exec();
      return groups.map((group): UsageSeriesRow => ({
        key: group._id.key,
        series: group._id.series,
        ...sums(group),
      }));
    },
    async totalsByTask(tenantId, taskIds) {
      if (taskIds.length === 0) return [];
      const pipeline = usageByTaskPipeline(tenantId, taskIds);
      const groups = await tokenUsage.aggregate<RollupGroup>(pipeline).exec();
      return groups.map((group): UsageRollupRow => ({ key: group._id, ...sums(group) }));
    },
  };
}
