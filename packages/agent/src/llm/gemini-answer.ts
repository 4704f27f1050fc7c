// Reading a Gemini response: the answer text and its usage, or a ProviderError for a response
// that answered 2xx but will never hold a usable answer.
import type { GenerateContentResponse } from '@google/genai';
import type { LlmUsage } from './port';
import { ProviderError, type ProviderResponse } from './provider';

type GeminiResponse = Pick<
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
 * The first candidate's text without its thought parts. Throws, not retryable and with the
 * tokens spent, when the prompt was blocked or the candidate stopped for a reason a retry won't
 * change (safety, recitation…).
 */
export function readGeminiAnswer(
  response: GeminiResponse,
  requestedModel: string,
): ProviderResponse {
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
  return { text, usage, model: response.modelVersion ?? requestedModel };
}
