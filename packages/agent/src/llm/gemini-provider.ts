// Google Gemini through @google/genai. Structured output uses responseMimeType +
// responseJsonSchema (plain JSON Schema), so the zod schema is the single source of truth.
import { ApiError, GoogleGenAI, type GenerateContentResponse, type Part } from '@google/genai';
import type { LlmNode, LlmUsage } from './port';
import {
  ProviderError,
  isAbortError,
  parseRetryAfter,
  sanitizeMessage,
  type ModelProvider,
  type ProviderRequest,
  type ProviderResponse,
} from './provider';

export const DEFAULT_GEMINI_MODEL = 'gemini-2.5-flash';

export interface GeminiProviderOptions {
  apiKey: string;
  /** Points the SDK elsewhere (a proxy, or a local stub in tests). */
  baseUrl?: string;
  /**
   * SDK-level timeout. The client's per-attempt timeout normally fires first; this is a
   * backstop for callers that use the provider directly.
   */
  timeoutMs?: number;
  /** Model for nodes without an entry in `models`. */
  model?: string;
  models?: Partial<Record<LlmNode, string>>;
  /** Omitted: the model's default. */
  temperature?: number;
  /** Gemini 2.5 thinks by default; a budget (0 = off on Flash) trades quality for latency. */
  thinkingBudget?: number;
  /** Injected fetch (tests, proxies). */
  fetch?: typeof globalThis.fetch;
}

export function createGeminiProvider(options: GeminiProviderOptions): ModelProvider {
  const ai = new GoogleGenAI({
    apiKey: options.apiKey,
    httpOptions: {
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    },
  });
  const defaultModel = options.model ?? DEFAULT_GEMINI_MODEL;
  const baseFetch = options.fetch ?? globalThis.fetch;

  return {
    name: 'GOOGLE',
    modelFor: (node) => options.models?.[node] ?? defaultModel,
    async complete(request: ProviderRequest): Promise<ProviderResponse> {
      // The SDK's ApiError keeps the status but drops the headers; a per-call fetch wrapper
      // is the only way to see Retry-After. Per call (not per client) so concurrent calls
      // never read each other's headers.
      let retryAfterMs: number | undefined;
      const capturingFetch: typeof globalThis.fetch = async (input, init) => {
        const response = await baseFetch(input, init);
        if (!response.ok) retryAfterMs = parseRetryAfter(response.headers);
        return response;
      };

      const parts: Part[] = [
        // Google's guidance: images before the text that refers to them.
        ...request.images.map((image) => ({
          inlineData: { mimeType: image.mimeType, data: image.data },
        })),
        { text: request.prompt },
      ];

      let response: GenerateContentResponse;
      try {
        response = await ai.models.generateContent({
          model: request.model,
          contents: [{ role: 'user', parts }],
          config: {
            ...(request.system !== '' ? { systemInstruction: request.system } : {}),
            responseMimeType: 'application/json',
            responseJsonSchema: request.jsonSchema,
            abortSignal: request.signal,
            httpOptions: { fetch: capturingFetch },
            ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
            ...(options.thinkingBudget !== undefined
              ? { thinkingConfig: { thinkingBudget: options.thinkingBudget } }
              : {}),
          },
        });
      } catch (error) {
        throw toProviderError(error, request.signal, retryAfterMs, options.apiKey);
      }

      const usage = geminiUsage(response);
      const blockReason = response.promptFeedback?.blockReason;
      if (blockReason !== undefined) {
        throw new ProviderError(`Gemini blocked the prompt (${blockReason}).`, {
          kind: 'invalid_response',
          retryable: false,
          usage,
        });
      }
      const candidate = response.candidates?.[0];
      const text = (candidate?.content?.parts ?? [])
        .filter((part) => part.thought !== true && typeof part.text === 'string')
        .map((part) => part.text)
        .join('');
      // An empty answer cut off by MAX_TOKENS is left to the repair path; a safety stop is not
      // going to change on a retry.
      if (text === '' && candidate?.finishReason !== undefined) {
        const reason = String(candidate.finishReason);
        if (reason !== 'STOP' && reason !== 'MAX_TOKENS') {
          throw new ProviderError(`Gemini returned no output (finishReason ${reason}).`, {
            kind: 'invalid_response',
            retryable: false,
            usage,
          });
        }
      }
      return { text, usage, model: response.modelVersion ?? request.model };
    },
  };
}

/** Gemini's candidatesTokenCount already excludes thoughts, matching the normalised shape. */
export function geminiUsage(response: Pick<GenerateContentResponse, 'usageMetadata'>): LlmUsage {
  const meta = response.usageMetadata;
  const inputTokens = (meta?.promptTokenCount ?? 0) + (meta?.toolUsePromptTokenCount ?? 0);
  const outputTokens = meta?.candidatesTokenCount ?? 0;
  const thinkingTokens = meta?.thoughtsTokenCount ?? 0;
  return {
    inputTokens,
    outputTokens,
    cachedInputTokens: meta?.cachedContentTokenCount ?? 0,
    thinkingTokens,
    totalTokens: meta?.totalTokenCount ?? inputTokens + outputTokens + thinkingTokens,
  };
}

function toProviderError(
  error: unknown,
  signal: AbortSignal,
  retryAfterHeaderMs: number | undefined,
  apiKey: string,
): ProviderError {
  if (error instanceof ApiError) {
    const { message, retryDelayMs } = parseGeminiErrorBody(error.message);
    return new ProviderError(
      `Gemini API error ${error.status}: ${sanitizeMessage(message, [apiKey])}`,
      {
        kind: 'http',
        status: error.status,
        retryAfterMs: retryAfterHeaderMs ?? retryDelayMs,
        cause: error,
      },
    );
  }
  if (signal.aborted || isAbortError(error)) {
    // Our signal: the client knows whether it was its timeout or the caller. Otherwise the
    // SDK's own httpOptions.timeout fired.
    return signal.aborted
      ? new ProviderError('Gemini request aborted.', { kind: 'aborted', cause: error })
      : new ProviderError('Gemini request timed out.', { kind: 'timeout', cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof TypeError) {
    // undici reports refused/reset connections and DNS failures as TypeError('fetch failed').
    return new ProviderError(`Gemini request failed: ${sanitizeMessage(message, [apiKey])}`, {
      kind: 'network',
      cause: error,
    });
  }
  return new ProviderError(`Gemini request failed: ${sanitizeMessage(message, [apiKey])}`, {
    kind: 'unknown',
    retryable: false,
    cause: error,
  });
}

/** ApiError's message is the JSON error body; Gemini's 429s carry a google.rpc.RetryInfo. */
function parseGeminiErrorBody(raw: string): { message: string; retryDelayMs?: number } {
  try {
    const body = JSON.parse(raw) as {
      error?: { message?: unknown; details?: { '@type'?: unknown; retryDelay?: unknown }[] };
    };
    const message = typeof body.error?.message === 'string' ? body.error.message : raw;
    const retryInfo = body.error?.details?.find(
      (detail) =>
        typeof detail['@type'] === 'string' && detail['@type'].endsWith('google.rpc.RetryInfo'),
    );
    const delay = typeof retryInfo?.retryDelay === 'string' ? retryInfo.retryDelay : undefined;
    const seconds = delay !== undefined ? Number(delay.replace(/s$/, '')) : NaN;
    return Number.isFinite(seconds)
      ? { message, retryDelayMs: Math.round(seconds * 1000) }
      : { message };
  } catch {
    return { message: raw };
  }
}
