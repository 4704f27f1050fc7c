// Wraps a ModelProvider into the LlmClient port. Everything that must behave the same for every
// provider is decided here, once: structured-output validation with one repair attempt
// (answer-with-repair.ts) or one tool-calling turn (converse.ts), retries with backoff for transient failures (complete-with-retries.ts,
// retry-policy.ts), the per-attempt timeout (attempt-with-timeout.ts), and exactly one usage
// event per call (usage-emitter.ts).
import type { z } from 'zod';
import { answerWithRepair } from './answer-with-repair';
import { converseWithRetries } from './converse';
import type { RetrySettings } from './complete-with-retries';
import { startCall, usageEventOf } from './llm-call';
import type { LlmClient, LlmRequest, LlmResult, UsageHook } from './port';
import type { ModelProvider } from './provider';
import { createUsageEmitter, type HookErrorReporter } from './usage-emitter';

export { repairPrompt } from './answer-with-repair';

export const DEFAULT_LLM_TIMEOUT_MS = 30_000;
export const DEFAULT_LLM_MAX_RETRIES = 3;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;

export interface CreateLlmClientOptions {
  /** Receives one event per generate call, success or failure. Never awaited by the call. */
  usageHook?: UsageHook;
  /** A usage hook that threw or rejected. Default: console.error (lost usage must be visible). */
  onHookError?: HookErrorReporter;
  /** Retries of transient failures (429, 5xx, timeouts, network) per generate call. Default 3. */
  maxRetries?: number;
  /** Timeout of each provider attempt (not of the whole call with its retries). Default 30 s. */
  timeoutMs?: number;
  /** First backoff delay; doubles per retry, with jitter. Default 500 ms. */
  retryBaseDelayMs?: number;
  /**
   * Longest wait before a retry. A Retry-After beyond it fails the call at once: an interactive
   * agent can't sit out a minute-long quota window, and retrying earlier would just 429 again.
   * Default 30 s.
   */
  maxRetryDelayMs?: number;
  /** Jitter source, injectable for deterministic tests. */
  random?: () => number;
}

export function createLlmClient(
  provider: ModelProvider,
  options: CreateLlmClientOptions = {},
): LlmClient {
  const maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_LLM_MAX_RETRIES);
  const settings: RetrySettings = {
    timeoutMs: options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    backoff: {
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
      maxDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
      random: options.random ?? Math.random,
    },
  };
  const emit = createUsageEmitter(options.usageHook, options.onHookError);

  async function generate<S extends z.ZodType>(
    request: LlmRequest<S>,
  ): Promise<LlmResult<z.output<S>>> {
    const call = startCall(provider, request, maxRetries);
    try {
      const answer = await answerWithRepair(call, settings);
      const latencyMs = performance.now() - call.started;
      emit(usageEventOf(call, latencyMs, { output: answer.json }));
      return {
        output: answer.value,
        usage: call.usage,
        model: call.model,
        provider: provider.name,
        latencyMs,
        generationId: call.generationId,
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      emit(usageEventOf(call, performance.now() - call.started, { error: message }));
      throw error;
    }
  }

  return {
    configured: true,
    provider: provider.name,
    acceptsImages: (node) => provider.acceptsImages?.(node) ?? false,
    generate,
    converse: (request) => converseWithRetries(provider, request, settings, maxRetries, emit),
  };
}
