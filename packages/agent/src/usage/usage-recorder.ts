// The single usage-recording hook every LLM call reports to (the LLM port calls it). It
// appends the append-only TokenUsageLog, idempotent on the generation id, and never fails or
// delays the request: errors are logged. Pricing and LangFuse plug in here (observability).
import type { Store } from '@tandem/store';
import type { AgentLogger } from '../deps';
import type { LlmUsageEvent, UsageHook } from '../llm/port';

export type PriceFn = (event: LlmUsageEvent) => number;

export function createUsageRecorder(options: {
  store: Store;
  log: AgentLogger;
  price?: PriceFn;
}): UsageHook {
  const price = options.price ?? (() => 0);
  return async (event) => {
    try {
      await options.store.tokenUsage.append(event.context.tenantId, {
        id: event.generationId,
        userId: event.context.userId ?? null,
        sessionId: event.context.sessionId ?? null,
        messageId: event.context.messageId ?? null,
        taskId: event.context.taskId ?? null,
        traceId: event.context.traceId ?? null,
        provider: event.provider,
        model: event.model,
        actionType: event.actionType,
        inputTokens: event.usage.inputTokens,
        outputTokens: event.usage.outputTokens,
        cachedInputTokens: event.usage.cachedInputTokens,
        thinkingTokens: event.usage.thinkingTokens,
        totalTokens: event.usage.totalTokens,
        costMicroUsd: price(event),
        durationMs: Math.round(event.latencyMs),
        timestamp: event.startedAt,
      });
    } catch (error) {
      options.log.error('usage log write failed', { generationId: event.generationId, error });
    }
  };
}
