// The retry loop against the scripted provider: the shared budget, usage of failed attempts,
// aborts, and errors that are not the provider's.
import { BlockedReason } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  completeWithRetries,
  type AnswerRequest,
  type RetrySettings,
} from './complete-with-retries';
import { geminiNoOutput, readGeminiAnswer } from './gemini-answer';
import { startCall } from './llm-call';
import { LlmCallError, type LlmRequest } from './port';
import { ProviderError, zeroUsage } from './provider';
import { createScriptedLlm, type ScriptedStep } from './scripted-client';

const request = (signal?: AbortSignal): LlmRequest<z.ZodType> => ({
  node: 'planning',
  actionType: 'PLANNING',
  system: 'sys',
  prompt: 'prompt',
  schema: z.object({}),
  schemaName: 'the plan!',
  context: { tenantId: 't1' },
  ...(signal !== undefined ? { signal } : {}),
});
const answer: AnswerRequest = { prompt: 'prompt', repairReason: null, jsonSchema: {} };
const settings: RetrySettings = {
  timeoutMs: 1_000,
  backoff: { baseDelayMs: 1, maxDelayMs: 1_000, random: () => 0 },
};
const unavailable = (usage?: number) =>
  ({
    node: 'planning',
    error: new ProviderError('HTTP 503', {
      kind: 'http',
      status: 503,
      ...(usage !== undefined ? { usage: { ...zeroUsage(), totalTokens: usage } } : {}),
    }),
  }) satisfies ScriptedStep;
const text = (text: string): ScriptedStep => ({ node: 'planning', text });
const scripted = (steps: ScriptedStep[]) =>
  createScriptedLlm(steps, { zeroLatency: true, modelFor: (node) => `model-${node}` });

describe('completeWithRetries', () => {
  it('sends the rendered request and returns the first good response', async () => {
    const llm = scripted([text('text')]);
    const call = startCall(llm.modelProvider, request(), 3);
    const response = await completeWithRetries(call, settings, answer);
    expect(response.text).toBe('text');
    expect(llm.attempts[0]).toMatchObject({
      node: 'planning',
      model: 'model-planning',
      schemaName: 'the_plan_',
      images: [],
      repairReason: null,
    });
    expect(call.retriesLeft).toBe(3);
  });

  it("spends the call's budget and counts tokens that failed attempts reported", async () => {
    const llm = scripted([unavailable(4), unavailable(), text('ok')]);
    const call = startCall(llm.modelProvider, request(), 3);
    await completeWithRetries(call, settings, answer);
    expect(llm.attempts).toHaveLength(3);
    expect(call.retriesLeft).toBe(1);
    // The successful response's own usage is the caller's to add.
    expect(call.usage.totalTokens).toBe(4);
  });

  it('fails with an LlmCallError once the budget left by an earlier answer is spent', async () => {
    const llm = scripted([unavailable(), unavailable()]);
    const call = startCall(llm.modelProvider, request(), 3);
    call.retriesLeft = 1;
    const error = await completeWithRetries(call, settings, answer).catch((e: unknown) => e);
    expect(llm.attempts).toHaveLength(2);
    expect(error).toBeInstanceOf(LlmCallError);
    expect(error).toMatchObject({
      message: 'SCRIPTED call for planning failed after 1 retry: HTTP 503',
      details: { node: 'planning', provider: 'SCRIPTED', model: 'model-planning', retryable: true },
    });
  });

  describe('safety blocks', () => {
    /** What the Gemini reader throws for a candidate stopped by the safety filter. */
    const candidateBlocked = (): ScriptedStep => ({
      node: 'planning',
      error: geminiNoOutput('SAFETY', { ...zeroUsage(), inputTokens: 40, totalTokens: 40 }),
    });

    it('retries a blocked candidate once, from the budget, billing the blocked attempt', async () => {
      const llm = scripted([candidateBlocked(), text('ok')]);
      const call = startCall(llm.modelProvider, request(), 3);
      const response = await completeWithRetries(call, settings, answer);
      expect(response.text).toBe('ok');
      expect(llm.attempts).toHaveLength(2);
      expect(call.retriesLeft).toBe(2);
      expect(call.usage.inputTokens).toBe(40);
    });

    it('fails not retryable when the retry is blocked too', async () => {
      const llm = scripted([candidateBlocked(), candidateBlocked(), text('unused')]);
      const call = startCall(llm.modelProvider, request(), 3);
      const error = await completeWithRetries(call, settings, answer).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmCallError);
      expect(error).toMatchObject({
        message:
          'SCRIPTED call for planning failed after 1 retry: Gemini returned no output ' +
          '(finishReason SAFETY).',
        details: { retryable: false },
      });
      expect(llm.attempts).toHaveLength(2);
      expect(call.usage.inputTokens).toBe(80);
    });

    it('gives the call one such retry, not one per answer', async () => {
      const llm = scripted([candidateBlocked(), text('first'), candidateBlocked(), text('unused')]);
      const call = startCall(llm.modelProvider, request(), 3);
      await completeWithRetries(call, settings, answer);
      // The repair attempt's answer, say: blocked again in the same call.
      await expect(completeWithRetries(call, settings, answer)).rejects.toMatchObject({
        details: { retryable: false },
      });
      expect(llm.attempts).toHaveLength(3);
    });

    it('does not retry a blocked prompt', async () => {
      let blocked: unknown;
      try {
        readGeminiAnswer({ promptFeedback: { blockReason: BlockedReason.SAFETY } }, 'm');
      } catch (error) {
        blocked = error;
      }
      expect(blocked).toBeInstanceOf(ProviderError);
      const llm = scripted([{ node: 'planning', error: blocked as ProviderError }, text('unused')]);
      const call = startCall(llm.modelProvider, request(), 3);
      await expect(completeWithRetries(call, settings, answer)).rejects.toMatchObject({
        message: 'SCRIPTED call for planning failed: Gemini blocked the prompt (SAFETY).',
        details: { retryable: false },
      });
      expect(llm.attempts).toHaveLength(1);
      expect(call.retriesLeft).toBe(3);
    });
  });

  it('does not call the provider when the caller already aborted', async () => {
    const llm = scripted([text('never')]);
    const call = startCall(llm.modelProvider, request(AbortSignal.abort()), 3);
    await expect(completeWithRetries(call, settings, answer)).rejects.toMatchObject({
      message: 'LLM call aborted by the caller.',
      details: { retryable: false },
    });
    expect(llm.attempts).toHaveLength(0);
  });

  it('stops waiting for a retry when the caller aborts during the backoff', async () => {
    const caller = new AbortController();
    const llm = scripted([
      {
        node: 'planning',
        output: () => {
          setTimeout(() => caller.abort(), 5);
          throw unavailable().error;
        },
      },
      text('too late'),
    ]);
    const call = startCall(llm.modelProvider, request(caller.signal), 3);
    const slow = { ...settings, backoff: { ...settings.backoff, baseDelayMs: 10_000 } };
    await expect(completeWithRetries(call, slow, answer)).rejects.toMatchObject({
      message: 'LLM call aborted by the caller.',
    });
    expect(llm.attempts).toHaveLength(1);
  });

  it('lets an error that is not a ProviderError through unchanged, without retrying', async () => {
    const bug = new RangeError('bug in provider');
    const llm = scripted([{ node: 'planning', error: bug }, text('unused')]);
    const call = startCall(llm.modelProvider, request(), 3);
    await expect(completeWithRetries(call, settings, answer)).rejects.toBe(bug);
    expect(llm.attempts).toHaveLength(1);
  });
});
