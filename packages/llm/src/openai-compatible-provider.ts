// Any OpenAI-compatible chat completions endpoint (OpenAI itself, Ollama, vLLM, llama.cpp,
// LM Studio…) through the openai SDK with a custom baseURL. `strict: false` because local
// servers implement strict mode unevenly and our zod parse is the real check anyway.
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from 'openai';
import { openAiConverse } from './openai-converse';
import type { LlmNode, LlmUsage } from './port';
import { looksMultimodal } from './vision';
import {
  ProviderError,
  parseRetryAfter,
  sanitizeMessage,
  type ModelProvider,
  type ProviderRequest,
  type ProviderResponse,
} from './provider';

export interface OpenAiCompatibleProviderOptions {
  /** e.g. http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM). */
  baseUrl: string;
  /** Local servers usually need none. */
  apiKey?: string;
  /** Model for nodes without an entry in `models`. */
  model: string;
  models?: Partial<Record<LlmNode, string>>;
  /** SDK-level timeout; the client's per-attempt timeout normally fires first. */
  timeoutMs?: number;
  /** Omitted: the server's default. */
  temperature?: number;
  fetch?: typeof globalThis.fetch;
  /** Whether the models read images. Default: judged by each model's name (vision.ts). */
  vision?: boolean;
}

// The SDK refuses to start without a key (it would read OPENAI_API_KEY from the environment);
// keyless local servers ignore the header.
const NO_KEY = 'not-needed';

export function createOpenAiCompatibleProvider(
  options: OpenAiCompatibleProviderOptions,
): ModelProvider {
  const client = new OpenAI({
    apiKey: options.apiKey ?? NO_KEY,
    baseURL: options.baseUrl,
    // Retries belong to create-llm-client.ts: one policy, one usage event per call.
    maxRetries: 0,
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
  });

  return {
    name: 'OPENAI_COMPATIBLE',
    modelFor: (node) => options.models?.[node] ?? options.model,
    acceptsImages: (node) =>
      options.vision ?? looksMultimodal(options.models?.[node] ?? options.model),
    async complete(request: ProviderRequest): Promise<ProviderResponse> {
      const userContent: OpenAI.Chat.ChatCompletionUserMessageParam['content'] =
        request.images.length === 0
          ? request.prompt
          : [
              { type: 'text', text: request.prompt },
              ...request.images.map((image) => ({
                type: 'image_url' as const,
                image_url: { url: `data:${image.mimeType};base64,${image.data}` },
              })),
            ];
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        ...(request.system !== '' ? [{ role: 'system' as const, content: request.system }] : []),
        { role: 'user', content: userContent },
      ];

      let completion: OpenAI.Chat.ChatCompletion;
      try {
        completion = await client.chat.completions.create(
          {
            model: request.model,
            messages,
            response_format: {
              type: 'json_schema',
              json_schema: { name: request.schemaName, schema: request.jsonSchema, strict: false },
            },
            ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          },
          { signal: request.signal },
        );
      } catch (error) {
        throw toProviderError(error, request.signal, options.apiKey);
      }

      const { message, usage } = readOpenAiChoice(completion, options.apiKey);
      return { text: message?.content ?? '', usage, model: completion.model || request.model };
    },
    converse: (request) => openAiConverse(client, request, options.apiKey, options.temperature),
  };
}

/**
 * The first choice's message and the usage, or a ProviderError with the tokens spent when the
 * answer holds none: a refusal (not retryable), or output the content filter stopped, which is a
 * blocked candidate (the prompt passed the filter) that the client retries once.
 */
export function readOpenAiChoice(
  completion: OpenAI.Chat.ChatCompletion,
  apiKey: string | undefined,
): { message: OpenAI.Chat.ChatCompletionMessage | undefined; usage: LlmUsage } {
  const usage = openAiUsage(completion.usage);
  const choice = completion.choices[0];
  const message = choice?.message;
  if (message?.refusal != null && message.refusal !== '') {
    throw new ProviderError(`The model refused: ${sanitizeMessage(message.refusal, [apiKey])}`, {
      kind: 'invalid_response',
      retryable: false,
      usage,
    });
  }
  if (choice?.finish_reason === 'content_filter') {
    throw new ProviderError(
      'The content filter stopped the output (finish_reason content_filter).',
      {
        kind: 'invalid_response',
        retryable: false,
        usage,
        safetyBlock: 'candidate',
      },
    );
  }
  return { message, usage };
}

/**
 * completion_tokens includes reasoning tokens; they are split out so outputTokens means the
 * same as Gemini's candidatesTokenCount (see ModelProvider).
 */
export function openAiUsage(usage: OpenAI.CompletionUsage | undefined): LlmUsage {
  const inputTokens = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  const thinkingTokens = usage?.completion_tokens_details?.reasoning_tokens ?? 0;
  return {
    inputTokens,
    outputTokens: Math.max(0, completion - thinkingTokens),
    cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    thinkingTokens,
    totalTokens: usage?.total_tokens ?? inputTokens + completion,
  };
}

export function toProviderError(
  error: unknown,
  signal: AbortSignal,
  apiKey: string | undefined,
): ProviderError {
  // Order matters: the abort/timeout/connection errors are APIError subclasses too.
  if (error instanceof APIUserAbortError || signal.aborted) {
    return new ProviderError('OpenAI-compatible request aborted.', {
      kind: 'aborted',
      cause: error,
    });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError('OpenAI-compatible request timed out.', {
      kind: 'timeout',
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new ProviderError(
      `OpenAI-compatible endpoint unreachable${sanitizeMessage(cause, [apiKey])}`,
      { kind: 'network', cause: error },
    );
  }
  if (error instanceof APIError && error.status !== undefined) {
    return new ProviderError(
      `OpenAI-compatible API error ${error.status}: ${sanitizeMessage(error.message, [apiKey])}`,
      {
        kind: 'http',
        status: error.status,
        retryAfterMs: parseRetryAfter(error.headers),
        cause: error,
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(
    `OpenAI-compatible request failed: ${sanitizeMessage(message, [apiKey])}`,
    { kind: 'unknown', retryable: false, cause: error },
  );
}
