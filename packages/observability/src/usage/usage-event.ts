// What the usage service records: one LLM call. The one definition of the event: the agent's
// LLM port emits exactly this type (its UsageHook takes a UsageEvent), because the agent depends
// on this package and not the reverse. `usage` has the fields of the agent's LlmUsage and
// `context` those of its LlmCallContext, so the port builds the event from its own values.
import type { LlmActionType, LlmNode, LlmProvider } from '@tandem/contracts';
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

/**
 * Another node's answer carried by one call (one call where one answer suffices): the node, the
 * action type it is billed under, and the field of the structured output that holds its answer.
 */
export interface CallPart {
  node: LlmNode;
  actionType: LlmActionType;
  field: string;
}

export interface UsageEvent {
  /** Unique per call; the usage log is idempotent on it. */
  generationId: string;
  /** The graph node that made the call; also names its LangFuse generation. */
  node: LlmNode;
  /**
   * Other nodes whose answer the same call carried (context analysis writes the plan too): the
   * generation is shown under every node it served, and priced under each (usage-shares.ts).
   */
  alsoFor?: readonly CallPart[];
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
