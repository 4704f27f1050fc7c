// Reading a Gemini response: the answer text and its usage, or a ProviderError for a response
// that answered 2xx but will never hold a usable answer.
import type { GenerateContentResponse, Part } from '@google/genai';
import type { LlmUsage } from './port';
import { ProviderError, type ProviderResponse } from './provider';

export type GeminiResponse = Pick<
  GenerateContentResponse,
  'usageMetadata' | 'promptFeedback' | 'candidates' | 'modelVersion'
>;

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

/**
 * A candidate that stopped with no output. SAFETY is the safety filter stopping the sampled
 * output (the prompt passed), which the client retries once (see decideRetry); every other stop
 * is `retryable` as the caller says.
 */
export function geminiNoOutput(
  finishReason: string,
  usage: LlmUsage,
  retryable = false,
): ProviderError {
  return new ProviderError(`Gemini returned no output (finishReason ${finishReason}).`, {
    kind: 'invalid_response',
    retryable,
    usage,
    ...(finishReason === 'SAFETY' ? { safetyBlock: 'candidate' as const } : {}),
  });
}

/**
 * The usage, and the first candidate's parts and text (without its thought parts), as every
 * reader of a Gemini answer needs them. Throws, not retryable and with the tokens spent, when
 * the prompt was blocked.
 */
export function readGeminiCandidate(response: GeminiResponse): {
  usage: LlmUsage;
  candidate: NonNullable<GeminiResponse['candidates']>[number] | undefined;
  parts: Part[];
  text: string;
  /** Why the candidate stopped, when Gemini said. */
  finishReason: string | null;
} {
  const usage = geminiUsage(response);
  const blockReason = response.promptFeedback?.blockReason;
  if (blockReason !== undefined) {
    throw new ProviderError(`Gemini blocked the prompt (${blockReason}).`, {
      kind: 'invalid_response',
      retryable: false,
      usage,
      safetyBlock: 'prompt',
    });
  }
  const candidate = response.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  const text = parts
    .filter((part) => part.thought !== true && typeof part.text === 'string')
    .map((part) => part.text)
    .join('');
  const finishReason =
    candidate?.finishReason !== undefined ? String(candidate.finishReason) : null;
  return { usage, candidate, parts, text, finishReason };
}

/**
 * The first candidate's text without its thought parts. Throws, not retryable and with the
 * tokens spent, when the prompt was blocked or the candidate stopped with no output (safety,
 * recitation…); a safety stop is marked as a blocked candidate, which the client retries once.
 */
export function readGeminiAnswer(
  response: GeminiResponse,
  requestedModel: string,
): ProviderResponse {
  const { usage, text, finishReason } = readGeminiCandidate(response);
  // An empty answer cut off by MAX_TOKENS is left to the repair path.
  if (
    text === '' &&
    finishReason !== null &&
    finishReason !== 'STOP' &&
    finishReason !== 'MAX_TOKENS'
  ) {
    throw geminiNoOutput(finishReason, usage);
  }
  return { text, usage, model: response.modelVersion ?? requestedModel };
}
