// Structured output with one repair attempt, against the scripted provider.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerWithRepair, blockedRepairPrompt, repairPrompt } from './answer-with-repair';
import type { RetrySettings } from './complete-with-retries';
import { geminiNoOutput } from './gemini-answer';
import { startCall } from './llm-call';
import { LlmCallError, type LlmRequest } from './port';
import { ProviderError, zeroUsage } from './provider';
import { createScriptedLlm, type ScriptedStep } from './scripted-client';

const Out = z.object({ value: z.number(), label: z.string().default('none') });
const request: LlmRequest<typeof Out> = {
  node: 'verification',
  actionType: 'VERIFICATION',
  system: 'sys',
  prompt: 'the prompt',
  schema: Out,
  context: { tenantId: 't1' },
};
const settings: RetrySettings = {
  timeoutMs: 1_000,
  backoff: { baseDelayMs: 1, maxDelayMs: 1_000, random: () => 0 },
};
/** Each answer costs 10 tokens. */
const answer = (text: string, model?: string): ScriptedStep => ({
  node: 'verification',
  text,
  usage: { totalTokens: 10 },
  ...(model !== undefined ? { model } : {}),
});
const scripted = (steps: ScriptedStep[]) =>
  createScriptedLlm(steps, { zeroLatency: true, modelFor: (node) => `model-${node}` });

describe('answerWithRepair', () => {
  it("returns the parsed value and the model's JSON, without a repair when the first answer fits", async () => {
    const llm = scripted([answer('{"value":1}')]);
    const call = startCall(llm.modelProvider, request, 3);
    await expect(answerWithRepair(call, settings)).resolves.toEqual({
      value: { value: 1, label: 'none' },
      json: { value: 1 },
    });
    expect(llm.attempts).toHaveLength(1);
    expect(call.usage.totalTokens).toBe(10);
  });

  it('repairs once with the reason, and asks the model that answered', async () => {
    // Each answer names a more specific version of the model it was asked for.
    const llm = scripted([
      answer('{"value":"one"}', 'model-verification-001'),
      answer('{"value":1}', 'model-verification-001-001'),
    ]);
    const seen = llm.attempts;
    const call = startCall(llm.modelProvider, request, 3);
    await expect(answerWithRepair(call, settings)).resolves.toMatchObject({ value: { value: 1 } });
    expect(seen.map((r) => r.model)).toEqual(['model-verification', 'model-verification-001']);
    expect(seen[1]?.repairReason).toMatch(/did not match the required schema/);
    expect(seen[1]?.prompt).toBe(
      repairPrompt('the prompt', '{"value":"one"}', seen[1]?.repairReason ?? ''),
    );
    expect(call.usage.totalTokens).toBe(20);
    expect(call.model).toBe('model-verification-001-001');
  });

  it('gives up after one repair with a non-retryable LlmCallError when JSON misses the schema', async () => {
    const llm = scripted([answer('{"value":"w"}'), answer('{"value":"x"}'), answer('{}')]);
    const call = startCall(llm.modelProvider, request, 3);
    const error = await answerWithRepair(call, settings).catch((e: unknown) => e);
    expect(llm.attempts).toHaveLength(2);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).message).toMatch(
      /^SCRIPTED output for verification did not match the schema after one repair attempt\. The JSON did not match/,
    );
    expect((error as LlmCallError).details.retryable).toBe(false);
  });

  it('an empty or cut-off answer, then a failed repair: one fresh sample from the retry budget', async () => {
    // Empty candidates, then a repair cut off by MAX_TOKENS: transport-like, not the schema.
    const llm = scripted([answer(''), answer('{"value":'), answer('{"value":3}')]);
    const call = startCall(llm.modelProvider, request, 3);
    await expect(answerWithRepair(call, settings)).resolves.toMatchObject({ value: { value: 3 } });
    expect(llm.attempts.map((a) => a.prompt === 'the prompt')).toEqual([true, false, true]);
    expect(call.retriesLeft).toBe(2);
    expect(call.usage.totalTokens).toBe(30);
    // Cut off until the budget is spent: a failure the request may be sent again for.
    const spent = scripted([answer(''), answer(''), answer('{"value'), answer('{')]);
    const broke = startCall(spent.modelProvider, request, 2);
    const error = await answerWithRepair(broke, settings).catch((e: unknown) => e);
    expect(spent.attempts).toHaveLength(4);
    expect((error as LlmCallError).message).toMatch(
      /was empty, cut off or not JSON after one repair/,
    );
    expect((error as LlmCallError).details.retryable).toBe(true);
  });

  it("takes the repair attempt's retries from the budget the first answer left", async () => {
    const unavailable: ScriptedStep = {
      node: 'verification',
      error: new ProviderError('HTTP 503', { kind: 'http', status: 503 }),
    };
    const llm = scripted([unavailable, answer('not json'), unavailable]);
    const call = startCall(llm.modelProvider, request, 1);
    await expect(answerWithRepair(call, settings)).rejects.toThrow(
      /SCRIPTED call for verification failed: HTTP 503/,
    );
    expect(llm.attempts).toHaveLength(3);
  });

  describe('a candidate blocked by the safety filter', () => {
    /** What the Gemini reader throws for a SAFETY stop: the blocked sample cost 7 tokens. */
    const blocked: ScriptedStep = {
      node: 'verification',
      error: geminiNoOutput('SAFETY', { ...zeroUsage(), inputTokens: 7, totalTokens: 7 }),
    };

    it('is sampled again once; the answer after it is used, both attempts billed', async () => {
      const llm = scripted([blocked, answer('{"value":2}')]);
      const call = startCall(llm.modelProvider, request, 3);
      await expect(answerWithRepair(call, settings)).resolves.toMatchObject({
        value: { value: 2 },
      });
      expect(llm.attempts).toHaveLength(2);
      // No repair: the retry sends the caller's prompt again.
      expect(llm.attempts.map((a) => a.repairReason)).toEqual([null, null]);
      expect(call.usage.totalTokens).toBe(17);
    });

    it('blocked twice: asked once more with a note, from the budget, and that answer used', async () => {
      const llm = scripted([blocked, blocked, answer('{"value":2}')]);
      const call = startCall(llm.modelProvider, request, 3);
      await expect(answerWithRepair(call, settings)).resolves.toMatchObject({
        value: { value: 2 },
      });
      expect(llm.attempts.map((a) => a.prompt)).toEqual([
        'the prompt',
        'the prompt',
        blockedRepairPrompt('the prompt'),
      ]);
      expect(llm.attempts[2]?.repairReason).toMatch(/blocked by the safety filter/);
      // The retry and the rephrased request both came out of the one budget.
      expect(call.retriesLeft).toBe(1);
      expect(call.usage.totalTokens).toBe(24);
    });

    it('blocked when rephrased too: the refusal, not retryable, and not asked again', async () => {
      const llm = scripted([blocked, blocked, blocked, answer('{"value":2}')]);
      const call = startCall(llm.modelProvider, request, 3);
      const error = await answerWithRepair(call, settings).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmCallError);
      expect((error as LlmCallError).message).toBe(
        'SCRIPTED call for verification failed: Gemini returned no output (finishReason SAFETY).',
      );
      expect((error as LlmCallError).details.retryable).toBe(false);
      expect(llm.attempts).toHaveLength(3);
      expect(call.usage.totalTokens).toBe(21);
    });

    it('blocked twice with no budget left for a rephrased request: the refusal', async () => {
      const llm = scripted([blocked, blocked, answer('{"value":2}')]);
      const call = startCall(llm.modelProvider, request, 1);
      const error = await answerWithRepair(call, settings).catch((e: unknown) => e);
      expect((error as LlmCallError).details.retryable).toBe(false);
      expect(llm.attempts).toHaveLength(2);
    });
  });
});

describe('repairPrompt', () => {
  it('appends the reason and the previous answer, truncating a long one', () => {
    const prompt = repairPrompt('ask', 'x'.repeat(2_500), 'Not JSON.');
    expect(
      prompt.startsWith('ask\n\n---\nYour previous answer could not be used.\nNot JSON.\n'),
    ).toBe(true);
    expect(prompt).toContain(`Previous answer:\n${'x'.repeat(2_000)}… (truncated)\n`);
    expect(prompt).not.toContain('x'.repeat(2_001));
  });
});
