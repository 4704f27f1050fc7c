// Google Gemini through @google/genai. Structured output uses responseMimeType +
// responseJsonSchema (plain JSON Schema), so the zod schema is the single source of truth; tool
// calling uses function declarations with JSON Schema parameters (gemini-converse.ts).
import { ApiError, GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { readGeminiAnswer } from './gemini-answer';
import { geminiConverseRequest, readGeminiTurn } from './gemini-converse';
import { geminiRequest, retryAfterCapturingFetch } from './gemini-request';
import type { LlmNode } from './port';
import {
  ProviderError,
  isAbortError,
  sanitizeMessage,
  type ModelProvider,
  type ProviderConverseRequest,
  type ProviderConverseResponse,
  type ProviderRequest,
  type ProviderResponse,
} from './provider';

export { geminiUsage } from './gemini-answer';

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
  /** Whether the models read images. Default true: every Gemini model does. */
  vision?: boolean;
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
    acceptsImages: () => options.vision ?? true,
    async complete(request: ProviderRequest): Promise<ProviderResponse> {
      const capture = retryAfterCapturingFetch(baseFetch);
      const params = geminiRequest(request, options, capture.fetch);
      let response: GenerateContentResponse;
      try {
        response = await ai.models.generateContent(params);
      } catch (error) {
        throw toProviderError(error, request.signal, capture.retryAfterMs(), options.apiKey);
      }
      return readGeminiAnswer(response, request.model);
    },
    async converse(request: ProviderConverseRequest): Promise<ProviderConverseResponse> {
      const capture = retryAfterCapturingFetch(baseFetch);
      const params = geminiConverseRequest(request, options, capture.fetch);
      let response: GenerateContentResponse;
      try {
        response = await ai.models.generateContent(params);
      } catch (error) {
        throw toProviderError(error, request.signal, capture.retryAfterMs(), options.apiKey);
      }
      return readGeminiTurn(response, request.model);
    },
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
  if (error instanceof SyntaxError) {
    // The SDK could not parse the response body: the connection delivered part of it (a cut
    // stream, a proxy's truncation). The same request usually goes through on a retry.
    return new ProviderError(
      `Gemini response was cut off or not JSON: ${sanitizeMessage(message, [apiKey])}`,
      { kind: 'network', cause: error },
    );
  }
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
