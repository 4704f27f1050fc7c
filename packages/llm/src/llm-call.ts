// The state of one generate call, shared by its attempts, retries and repair: which model is
// answering, the tokens spent so far and what is left of the retry budget. The usage event and
// every LlmCallError are built from it, so they report what the call really consumed.
import type { UsageEvent } from '@tandem/observability';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { LlmCallError, type LlmRequest, type LlmUsage } from './port';
import { zeroUsage, type ModelProvider } from './provider';

export interface LlmCall<S extends z.ZodType = z.ZodType> {
  readonly request: LlmRequest<S>;
  readonly provider: ModelProvider;
  /** Unique per call; the usage log is idempotent on it. */
  readonly generationId: string;
  /** ISO-8601, for the usage event. */
  readonly startedAt: string;
  /** performance.now() at the start, for latency. */
  readonly started: number;
  /** The provider's choice for the node until an answer names the model that gave it. */
  model: string;
  /** Every attempt's tokens, failed attempts included when the provider reported them. */
  usage: LlmUsage;
  /** One budget for the whole call: the repair attempt's retries come out of it too. */
  retriesLeft: number;
  /** Whether a candidate blocked by a safety filter was already retried (once per call). */
  candidateBlockRetried: boolean;
  /** Whether the attempt that ended the call's latest answer was a blocked candidate. */
  lastAttemptBlocked: boolean;
  /**
   * Whether the call already asked again with a note that its answers were blocked (once per
   * call): two blocked samples of one prompt, then one rephrased request (answerWithRepair).
   */
  blockRephrased: boolean;
}

export function startCall<S extends z.ZodType>(
  provider: ModelProvider,
  request: LlmRequest<S>,
  maxRetries: number,
): LlmCall<S> {
  return {
    request,
    provider,
    generationId: randomUUID(),
    startedAt: new Date().toISOString(),
    started: performance.now(),
    model: provider.modelFor(request.node),
    usage: zeroUsage(),
    retriesLeft: maxRetries,
    candidateBlockRetried: false,
    lastAttemptBlocked: false,
    blockRephrased: false,
  };
}

export function callFailure(call: LlmCall, message: string, retryable: boolean): LlmCallError {
  return new LlmCallError(message, {
    node: call.request.node,
    provider: call.provider.name,
    model: call.model,
    retryable,
  });
}

export const abortedFailure = (call: LlmCall): LlmCallError =>
  callFailure(call, 'LLM call aborted by the caller.', false);

/** "GOOGLE call for planning": how failure messages name the call. */
export const callSubject = (call: LlmCall): string =>
  `${call.provider.name} call for ${call.request.node}`;

/**
 * The one usage event of a call. It carries the caller's prompt, not a repair prompt: the
 * trace shows what the node asked. `output` on success, `error` on failure, never both.
 */
export function usageEventOf(
  call: LlmCall,
  latencyMs: number,
  outcome: { output: unknown } | { error: string },
): UsageEvent {
  const { request } = call;
  return {
    generationId: call.generationId,
    node: request.node,
    ...(request.alsoFor?.length ? { alsoFor: request.alsoFor } : {}),
    actionType: request.actionType,
    provider: call.provider.name,
    model: call.model,
    usage: call.usage,
    latencyMs,
    context: request.context,
    ...('error' in outcome ? { error: outcome.error } : {}),
    startedAt: call.startedAt,
    input: { system: request.system, prompt: request.prompt },
    ...('output' in outcome ? { output: outcome.output } : {}),
  };
}
