// The token usage collection. Every index the adapter relies on is declared here:
// createMongoStore's syncIndexes() drops the ones that are not.
import { SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import type { TokenUsageLog } from './record';

export type TokenUsageDoc = MongoDoc<TokenUsageLog, 'timestamp'>;

export const tokenUsageSchema = new Schema<TokenUsageDoc>(
  {
    ...tenantOwned,
    partOf: String,
    userId: String,
    sessionId: String,
    messageId: String,
    taskId: String,
    traceId: String,
    provider: String,
    model: String,
    actionType: String,
    inputTokens: Number,
    outputTokens: Number,
    cachedInputTokens: Number,
    thinkingTokens: Number,
    totalTokens: Number,
    costMicroUsd: Number,
    durationMs: Number,
    timestamp: Date,
  },
  SCHEMA_OPTIONS,
);
// The generation id: a retried dual-write of the same LLM call must not bill twice.
tokenUsageSchema.index({ id: 1 }, { unique: true });
// Billing rollups and list() by time window.
tokenUsageSchema.index({ tenantId: 1, timestamp: 1 });
tokenUsageSchema.index({ tenantId: 1, taskId: 1, timestamp: 1 });
