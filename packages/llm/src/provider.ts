// A provider speaks one vendor's API and nothing else: it sends one request and returns the raw
// text. Parsing, schema validation, repair, retries, timeouts and usage accounting live once in
// create-llm-client.ts, so every provider behaves the same to the graph.
import type { LlmProvider } from '@tandem/contracts';
import type { z } from 'zod';
import type {
  LlmCallContext,
  LlmConverseRequest,
  LlmImage,
  LlmMessage,
  LlmNode,
  LlmRequest,
  LlmToolCall,
  LlmUsage,
} from './port';

export interface ProviderRequest {
  node: LlmNode;
  /** The model chosen by `modelFor(node)`; the client resolves it once per call. */
  model: string;
  system: string;
  /** The prompt to send: the caller's prompt, plus the validation error on a repair attempt. */
  prompt: string;
  /** JSON Schema (draft 2020-12, no `$schema` key) of the expected output. */
  jsonSchema: Record<string, unknown>;
  /** Matches `^[a-zA-Z0-9_-]{1,64}$` (OpenAI's rule for `json_schema.name`). */
  schemaName: string;
  images: LlmImage[];
  context: LlmCallContext;
  /** Aborted on the caller's signal or the per-attempt timeout. */
  signal: AbortSignal;
  /** Set on the one repair attempt: why the previous output was rejected. */
  repairReason: string | null;
  /**
   * The caller's request as given. Real providers read only the rendered fields above; the
   * scripted provider hands it to scripted functions so tests can assert on what a node asked.
   */
  origin: LlmRequest<z.ZodType>;
}

export interface ProviderResponse {
  text: string;
  usage: LlmUsage;
  /** The model that answered (providers may report a more specific version). */
  model: string;
}

/** A tool as providers send it: its arguments' JSON Schema, converted once by the client. */
export interface ProviderTool {
  name: string;
  description: string;
  jsonSchema: Readonly<Record<string, unknown>>;
}

export interface ProviderConverseRequest {
  node: LlmNode;
  model: string;
  system: string;
  messages: LlmMessage[];
  tools: ProviderTool[];
  context: LlmCallContext;
  signal: AbortSignal;
  /** The caller's request as given (the scripted provider hands it to scripted functions). */
  origin: LlmConverseRequest;
}

export interface ProviderConverseResponse {
  text: string;
  toolCalls: LlmToolCall[];
  providerState?: unknown;
  usage: LlmUsage;
  model: string;
}

/**
 * One vendor API. Usage is normalised across providers: `inputTokens` includes cached input
 * (`cachedInputTokens` is the subset), and `outputTokens` excludes thinking/reasoning tokens
 * (`thinkingTokens` counts them), so pricing can charge output + thinking at the output rate
 * whichever provider answered.
 */
export interface ModelProvider {
  readonly name: LlmProvider;
  modelFor(node: LlmNode): string;
  /** Whether `modelFor(node)` reads images; absent: it does not. */
  acceptsImages?(node: LlmNode): boolean;
  /** Throws ProviderError for every failure it can classify. */
  complete(request: ProviderRequest): Promise<ProviderResponse>;
  /** One tool-calling turn; absent for a provider without tool calling. Throws ProviderError. */
  converse?(request: ProviderConverseRequest): Promise<ProviderConverseResponse>;
}

export type ProviderErrorKind =
  /** The endpoint answered with a non-2xx status (see `status`). */
  | 'http'
  /** No answer in time. */
  | 'timeout'
  /** Connection refused/reset, DNS failure… */
  | 'network'
  /** The caller's signal aborted the request. */
  | 'aborted'
  /** The endpoint answered 2xx but with no usable output (blocked prompt, refusal…). */
  | 'invalid_response'
  /** Anything else (an SDK bug, a malformed request): not retried. */
  | 'unknown';

/**
 * Where a provider's safety filter stopped an answer: `prompt` when it blocked the prompt itself
 * (Gemini's promptFeedback.blockReason), `candidate` when it stopped the sampled output (Gemini's
 * finishReason SAFETY, OpenAI's finish_reason "content_filter").
 */
export type SafetyBlock = 'prompt' | 'candidate';

/**
 * A classified provider failure. The client decides retries from `retryable`, and from
 * `safetyBlock` for the one retry of a blocked candidate (see decideRetry); providers set
 * `retryable` with `isRetryableStatus` for HTTP errors. Messages never contain API keys.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  readonly retryable: boolean;
  /** From Retry-After / retry-after-ms / Gemini RetryInfo, when the server said. */
  readonly retryAfterMs: number | undefined;
  /** Tokens the failed attempt still consumed (e.g. a blocked candidate), if reported. */
  readonly usage: LlmUsage | undefined;
  /** Set when a safety filter stopped the answer; such a failure is not `retryable`. */
  readonly safetyBlock: SafetyBlock | undefined;

  constructor(
    message: string,
    options: {
      kind: ProviderErrorKind;
      status?: number;
      retryable?: boolean;
      retryAfterMs?: number;
      usage?: LlmUsage;
      safetyBlock?: SafetyBlock;
      cause?: unknown;
    },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.usage = options.usage;
    this.safetyBlock = options.safetyBlock;
    this.retryable =
      options.retryable ??
      (options.kind === 'timeout' ||
        options.kind === 'network' ||
        (options.kind === 'http' &&
          options.status !== undefined &&
          isRetryableStatus(options.status)));
  }
}

/** 408 and 429 are transient by definition; every 5xx except 501 (never going to work). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501);
}

export const zeroUsage = (): LlmUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  thinkingTokens: 0,
  totalTokens: 0,
});

export function addUsage(a: LlmUsage, b: LlmUsage): LlmUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    thinkingTokens: a.thinkingTokens + b.thinkingTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

/**
 * Parses Retry-After (delta-seconds, or an HTTP date) and the non-standard retry-after-ms that
 * OpenAI-compatible servers send. Fractional seconds are accepted: harmless, and some proxies
 * send them.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** Error texts from SDKs can echo request details; never let a key through, and keep them short. */
export function sanitizeMessage(message: string, secrets: (string | undefined)[] = []): string {
  let text = message;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) text = text.split(secret).join('[redacted]');
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

export function isAbortError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'AbortError' ||
      error.name === 'TimeoutError' ||
      error.name === 'APIUserAbortError')
  );
}
