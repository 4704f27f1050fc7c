// Reading Gemini responses, from plain objects shaped like the SDK's (no I/O).
import { BlockedReason, FinishReason, type GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { geminiUsage, readGeminiAnswer } from './gemini-answer';
import { ProviderError } from './provider';

type Response = Parameters<typeof readGeminiAnswer>[0];
const usageMetadata: GenerateContentResponse['usageMetadata'] = {
  promptTokenCount: 100,
  toolUsePromptTokenCount: 5,
  candidatesTokenCount: 20,
  thoughtsTokenCount: 7,
  cachedContentTokenCount: 40,
};

function failureOf(response: Response): ProviderError {
  try {
    readGeminiAnswer(response, 'gemini-2.5-flash');
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected readGeminiAnswer to throw');
}

describe('readGeminiAnswer', () => {
  it('joins the text parts without thoughts and reports the answering model', () => {
    const answer = readGeminiAnswer(
      {
        usageMetadata,
        modelVersion: 'gemini-2.5-flash-001',
        candidates: [
          {
            content: {
              parts: [{ text: 'thinking…', thought: true }, { text: '{"a":' }, { text: '1}' }],
            },
            finishReason: FinishReason.STOP,
          },
        ],
      },
      'gemini-2.5-flash',
    );
    expect(answer).toEqual({
      text: '{"a":1}',
      usage: geminiUsage({ usageMetadata }),
      model: 'gemini-2.5-flash-001',
    });
  });

  it('falls back to the requested model name', () => {
    expect(readGeminiAnswer({ candidates: [] }, 'gemini-2.5-pro').model).toBe('gemini-2.5-pro');
  });

  it('fails a blocked prompt, not retryable, with the tokens it cost', () => {
    const error = failureOf({
      usageMetadata,
      promptFeedback: { blockReason: BlockedReason.SAFETY },
    });
    expect(error).toMatchObject({
      message: 'Gemini blocked the prompt (SAFETY).',
      kind: 'invalid_response',
      retryable: false,
      // A blocked prompt is blocked again on a retry: not the candidate the client retries once.
      safetyBlock: 'prompt',
    });
    expect(error.usage?.inputTokens).toBe(105);
  });

  it('fails an empty answer stopped for safety, but leaves MAX_TOKENS to the repair path', () => {
    const stopped = (finishReason: FinishReason): Response => ({
      usageMetadata,
      candidates: [{ content: { parts: [] }, finishReason }],
    });
    const safety = failureOf(stopped(FinishReason.SAFETY));
    expect(safety).toMatchObject({
      message: 'Gemini returned no output (finishReason SAFETY).',
      kind: 'invalid_response',
      retryable: false,
      // The sampled output was blocked: the client gives it its one retry (decideRetry).
      safetyBlock: 'candidate',
    });
    expect(safety.usage).toEqual(geminiUsage({ usageMetadata }));
    // Other stops are no safety block: not retried at all.
    expect(failureOf(stopped(FinishReason.RECITATION))).toMatchObject({
      retryable: false,
      safetyBlock: undefined,
    });
    expect(readGeminiAnswer(stopped(FinishReason.MAX_TOKENS), 'm').text).toBe('');
    expect(readGeminiAnswer(stopped(FinishReason.STOP), 'm').text).toBe('');
  });
});

describe('geminiUsage', () => {
  it('counts tool-use prompts as input and keeps thoughts apart from output', () => {
    expect(geminiUsage({ usageMetadata })).toEqual({
      inputTokens: 105,
      outputTokens: 20,
      cachedInputTokens: 40,
      thinkingTokens: 7,
      totalTokens: 132,
    });
    expect(
      geminiUsage({ usageMetadata: { ...usageMetadata, totalTokenCount: 140 } }).totalTokens,
    ).toBe(140);
  });
});
