// What the usage service records: one LLM call. Structurally the agent's LlmUsageEvent, defined
// here because the agent depends on this package (not the reverse), so the agent's UsageHook
// accepts `usageService.recordUsage` as is. Keep the two in step; the agent's typecheck of the
// wiring (`const hook: UsageHook = usage.recordUsage`) fails if they drift apart.
import type { LlmActionType, LlmProvider } from '@tandem/contracts';
import type { PricedUsage } from '../pricing/pricing';

export interface UsageEventUsage extends PricedUsage {
  totalTokens: number;
}

export interface UsageEventContext {
  tenantId: string;
  userId?: string | null;
  sessionId?: string | null;
  taskId?: string | null;
  messageId?: string | null;
  traceId?: string | null;
}

export interface UsageEvent {
  /** Unique per call; the usage log is idempotent on it. */
  generationId: string;
  /** The graph node that made the call (the agent's LlmNode). */
  node: string;
  actionType: LlmActionType;
  provider: LlmProvider;
  model: string;
  usage: UsageEventUsage;
  latencyMs: number;
  context: UsageEventContext;
  /** Present when the call failed (no valid output). */
  error?: string;
  /** ISO-8601 start of the call. */
  startedAt: string;
  /** Prompt and output go to LangFuse only; the usage log stores numbers. */
  input: { system: string; prompt: string };
  output?: unknown;
}
