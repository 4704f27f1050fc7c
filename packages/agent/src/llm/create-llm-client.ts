// Wraps a ModelProvider into the LlmClient port. Everything that must behave the same for every
// provider lives here: structured-output validation with one repair attempt, retries with
// backoff for transient failures, the per-attempt timeout, and exactly one usage event per call.
import type { UsageEvent } from '@tandem/observability';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  LlmCallError,
  type LlmClient,
  type LlmRequest,
  type LlmResult,
  type LlmUsage,
  type UsageHook,
} from './port';
import {
  ProviderError,
  addUsage,
  zeroUsage,
  type ModelProvider,
  type ProviderResponse,
} from './provider';
import { parseStructuredOutput, toProviderJsonSchema, toSchemaName } from './structured-output';

export const DEFAULT_LLM_TIMEOUT_MS = 30_000;
export const DEFAULT_LLM_MAX_RETRIES = 3;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;

export interface CreateLlmClientOptions {
  /** Receives one event per generate call, success or failure. Never awaited by the call. */
  usageHook?: UsageHook;
  /** A usage hook that threw or rejected. Default: console.error (lost usage must be visible). */
  onHookError?: (error: unknown, event: UsageEvent) => void;
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
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const baseDelayMs = options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  const maxDelayMs = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const random = options.random ?? Math.random;
  const onHookError =
    options.onHookError ??
    ((error: unknown, event: UsageEvent) => {
      console.error(`[llm] usage hook failed for generation ${event.generationId}`, error);
    });

  const emit = (event: UsageEvent): void => {
    const hook = options.usageHook;
    if (hook === undefined) return;
    // Deferred and detached: a slow or failing hook (store write, tracing) must never delay or
    // fail the LLM call it reports on.
    void Promise.resolve()
      .then(() => hook(event))
      .catch((error: unknown) => {
        try {
          onHookError(error, event);
        } catch {
          // The error reporter itself failed; nothing left to tell.
        }
      });
  };

  async function generate<S extends z.ZodType>(
    request: LlmRequest<S>,
  ): Promise<LlmResult<z.output<S>>> {
    const generationId = randomUUID();
    const startedAt = new Date().toISOString();
    const started = performance.now();
    let model = provider.modelFor(request.node);
    let usage: LlmUsage = zeroUsage();
    const failure = (message: string, retryable: boolean): LlmCallError =>
      new LlmCallError(message, { node: request.node, provider: provider.name, model, retryable });

    /** One provider response, after retrying transient failures from the call's retry budget. */
    let retriesLeft = maxRetries;
    const completeWithRetries = async (
      prompt: string,
      repairReason: string | null,
      jsonSchema: Record<string, unknown>,
    ): Promise<ProviderResponse> => {
      for (let retry = 0; ; retry++) {
        if (request.signal?.aborted === true)
          throw failure('LLM call aborted by the caller.', false);
        let error: ProviderError;
        try {
          return await attempt({
            provider,
            timeoutMs,
            signal: request.signal,
            complete: (signal) =>
              provider.complete({
                node: request.node,
                model,
                system: request.system,
                prompt,
                jsonSchema,
                schemaName: toSchemaName(request.schemaName, request.node),
                images: request.images ?? [],
                context: request.context,
                signal,
                repairReason,
                origin: request as LlmRequest<z.ZodType>,
              }),
          });
        } catch (caught) {
          if (!(caught instanceof ProviderError)) throw caught;
          error = caught;
        }
        if (error.usage !== undefined) usage = addUsage(usage, error.usage);
        if (error.kind === 'aborted') throw failure('LLM call aborted by the caller.', false);
        const tried = retry === 0 ? '' : ` after ${retry} ${retry === 1 ? 'retry' : 'retries'}`;
        if (!error.retryable || retriesLeft <= 0) {
          throw failure(
            `${provider.name} call for ${request.node} failed${tried}: ${error.message}`,
            error.retryable,
          );
        }
        if (error.retryAfterMs !== undefined && error.retryAfterMs > maxDelayMs) {
          throw failure(
            `${provider.name} call for ${request.node} failed: the provider asked to retry after ` +
              `${Math.ceil(error.retryAfterMs / 1000)} s, longer than the ${maxDelayMs} ms we wait. ` +
              error.message,
            true,
          );
        }
        retriesLeft--;
        const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** retry) * (0.5 + random() * 0.5);
        const delay = Math.max(error.retryAfterMs ?? 0, backoff);
        try {
          await sleep(delay, request.signal);
        } catch {
          throw failure('LLM call aborted by the caller.', false);
        }
      }
    };

    try {
      const jsonSchema = toProviderJsonSchema(request.schema);
      let prompt = request.prompt;
      let repairReason: string | null = null;
      for (;;) {
        const response = await completeWithRetries(prompt, repairReason, jsonSchema);
        usage = addUsage(usage, response.usage);
        model = response.model;
        const parsed = parseStructuredOutput(response.text, request.schema);
        if (parsed.ok) {
          const latencyMs = performance.now() - started;
          emit({
            generationId,
            node: request.node,
            actionType: request.actionType,
            provider: provider.name,
            model,
            usage,
            latencyMs,
            context: request.context,
            startedAt,
            input: { system: request.system, prompt: request.prompt },
            output: parsed.json,
          });
          return {
            output: parsed.value,
            usage,
            model,
            provider: provider.name,
            latencyMs,
            generationId,
          };
        }
        // One repair only: a model that fails twice on the same schema rarely succeeds on a
        // third try, and each attempt costs a full prompt.
        if (repairReason !== null) {
          throw failure(
            `${provider.name} output for ${request.node} did not match the schema after one ` +
              `repair attempt. ${parsed.reason}`,
            false,
          );
        }
        repairReason = parsed.reason;
        prompt = repairPrompt(request.prompt, response.text, parsed.reason);
      }
    } catch (error) {
      emit({
        generationId,
        node: request.node,
        actionType: request.actionType,
        provider: provider.name,
        model,
        usage,
        latencyMs: performance.now() - started,
        context: request.context,
        error: error instanceof Error ? error.message : String(error),
        startedAt,
        input: { system: request.system, prompt: request.prompt },
      });
      throw error;
    }
  }

  return { configured: true, provider: provider.name, generate };
}

const MAX_ECHOED_ANSWER_CHARS = 2_000;

/** The original prompt plus what was wrong, so the model can fix its own answer. */
export function repairPrompt(prompt: string, previousAnswer: string, reason: string): string {
  const echoed =
    previousAnswer.length > MAX_ECHOED_ANSWER_CHARS
      ? `${previousAnswer.slice(0, MAX_ECHOED_ANSWER_CHARS)}… (truncated)`
      : previousAnswer;
  return [
    prompt,
    '',
    '---',
    'Your previous answer could not be used.',
    reason,
    'Previous answer:',
    echoed,
    '',
    'Answer again with one JSON value that matches the required schema exactly: no prose, no code fences.',
  ].join('\n');
}

/**
 * One provider attempt bounded by the timeout and the caller's signal. Raced as well as
 * signalled, so a provider that ignores its signal still can't hold the call past the timeout.
 */
async function attempt(args: {
  provider: ModelProvider;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  complete: (signal: AbortSignal) => Promise<ProviderResponse>;
}): Promise<ProviderResponse> {
  const controller = new AbortController();
  let cleanup = (): void => {};
  const stopped = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => {
      const error = new ProviderError(
        `${args.provider.name} did not answer within ${args.timeoutMs} ms.`,
        { kind: 'timeout' },
      );
      reject(error);
      controller.abort(error);
    }, args.timeoutMs);
    const onAbort = (): void => {
      reject(new ProviderError('LLM call aborted by the caller.', { kind: 'aborted' }));
      controller.abort(args.signal?.reason);
    };
    args.signal?.addEventListener('abort', onAbort, { once: true });
    cleanup = () => {
      clearTimeout(timer);
      args.signal?.removeEventListener('abort', onAbort);
    };
  });
  const work = args.complete(controller.signal);
  // The loser of the race may still reject later; that must not become an unhandled rejection.
  work.catch(() => {});
  stopped.catch(() => {});
  try {
    return await Promise.race([work, stopped]);
  } finally {
    cleanup();
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
