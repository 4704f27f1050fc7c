// What createGeminiProvider sends: the generateContent parameters for one ProviderRequest, and
// a fetch that remembers the Retry-After of a failed response.
import type { GenerateContentParameters, Part } from '@google/genai';
import type { ProviderRequest } from './provider';
import { parseRetryAfter } from './provider';

/** The provider options that shape every request. */
export interface GeminiRequestOptions {
  temperature?: number;
  thinkingBudget?: number;
}

export function geminiRequest(
  request: ProviderRequest,
  options: GeminiRequestOptions,
  fetch: typeof globalThis.fetch,
): GenerateContentParameters {
  const parts: Part[] = [
    // Google's guidance: images before the text that refers to them.
    ...request.images.map((image) => ({
      inlineData: { mimeType: image.mimeType, data: image.data },
    })),
    { text: request.prompt },
  ];
  return {
    model: request.model,
    contents: [{ role: 'user', parts }],
    config: {
      ...(request.system !== '' ? { systemInstruction: request.system } : {}),
      responseMimeType: 'application/json',
      responseJsonSchema: request.jsonSchema,
      abortSignal: request.signal,
      httpOptions: { fetch },
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.thinkingBudget !== undefined
        ? { thinkingConfig: { thinkingBudget: options.thinkingBudget } }
        : {}),
    },
  };
}

/**
 * The SDK's ApiError keeps the status but drops the headers; a fetch wrapper is the only way to
 * see Retry-After. Make one per call (not per client) so concurrent calls never read each
 * other's headers.
 */
export function retryAfterCapturingFetch(baseFetch: typeof globalThis.fetch): {
  fetch: typeof globalThis.fetch;
  /** The Retry-After of the last non-2xx response, if it had one. */
  retryAfterMs: () => number | undefined;
} {
  let retryAfterMs: number | undefined;
  return {
    fetch: async (input, init) => {
      const response = await baseFetch(input, init);
      if (!response.ok) retryAfterMs = parseRetryAfter(response.headers);
      return response;
    },
    retryAfterMs: () => retryAfterMs,
  };
}
