// The client wrapper's policies against the scripted provider (no I/O).
import { describe, expect, it, vi } from 'vitest';
import type { UsageEvent } from '@tandem/observability';
import { z } from 'zod';
import { createLlmClient } from './create-llm-client';
import { LlmCallError, type LlmRequest } from './port';
import { ProviderError, parseRetryAfter, zeroUsage } from './provider';
import { createScriptedLlm, type ScriptedStep } from './scripted-client';

const Out = z.object({ value: z.number() });
const request: LlmRequest<typeof Out> = {
  node: 'verification',
  actionType: 'VERIFICATION',
  system: 'sys',
  prompt: 'prompt',
  schema: Out,
  context: { tenantId: 't1' },
};
/** Each answer costs 10 tokens. */
const text = (text: string): ScriptedStep => ({
  node: 'verification',
  text,
  usage: { totalTokens: 10 },
});
/** The scripted provider (its own client aside): `attempts` are the requests it was sent. */
const scripted = (steps: ScriptedStep[]) =>
  createScriptedLlm(steps, { zeroLatency: true, modelFor: (node) => `model-${node}` });

describe('createLlmClient', () => {
  it('backs off exponentially with jitter between transient failures', async () => {
    const fail: ScriptedStep = {
      node: 'verification',
      error: new ProviderError('HTTP 503', { kind: 'http', status: 503 }),
    };
    const scriptedLlm = scripted([fail, fail, text('{"value":1}')]);
    const started = performance.now();
    const llm = createLlmClient(scriptedLlm.modelProvider, {
      retryBaseDelayMs: 40,
      random: () => 1,
    });
    await expect(llm.generate(request)).resolves.toMatchObject({
      output: { value: 1 },
      model: 'model-verification',
    });
    // 40 ms then 80 ms (random() = 1 means no jitter reduction).
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    expect(scriptedLlm.attempts).toHaveLength(3);
  });

  it('does not retry with maxRetries 0, and sums usage a failed attempt reported', async () => {
    const events: UsageEvent[] = [];
    const scriptedLlm = scripted([
      {
        node: 'verification',
        error: new ProviderError('blocked', {
          kind: 'invalid_response',
          retryable: false,
          usage: { ...zeroUsage(), totalTokens: 7 },
        }),
      },
    ]);
    const llm = createLlmClient(scriptedLlm.modelProvider, {
      maxRetries: 0,
      usageHook: (e) => void events.push(e),
    });
    await expect(llm.generate(request)).rejects.toBeInstanceOf(LlmCallError);
    expect(scriptedLlm.attempts).toHaveLength(1);
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({
      usage: { totalTokens: 7 },
      error: expect.stringMatching(/blocked/),
    });
  });

  it('times out a provider that ignores its signal', async () => {
    const { modelProvider } = scripted([
      { node: 'verification', output: () => new Promise<never>(() => {}) },
    ]);
    const llm = createLlmClient(modelProvider, { timeoutMs: 30, maxRetries: 0 });
    await expect(llm.generate(request)).rejects.toThrow(/did not answer within 30 ms/);
  });

  it('lets programming errors through unchanged, still reporting the call', async () => {
    const events: UsageEvent[] = [];
    const bug = new RangeError('bug in provider');
    const { modelProvider } = scripted([{ node: 'verification', error: bug }]);
    const llm = createLlmClient(modelProvider, { usageHook: (e) => void events.push(e) });
    await expect(llm.generate(request)).rejects.toBe(bug);
    await vi.waitFor(() => expect(events).toHaveLength(1));
  });

  it('gives each call its own generation id and sends the repair reason to the provider', async () => {
    const scriptedLlm = scripted([text('nope'), text('{"value":2}'), text('{"value":3}')]);
    const llm = createLlmClient(scriptedLlm.modelProvider);
    const a = await llm.generate(request);
    const b = await llm.generate(request);
    expect(a.generationId).not.toBe(b.generationId);
    const seen = scriptedLlm.attempts;
    expect(seen.map((r) => r.repairReason === null)).toEqual([true, false, true]);
    expect(seen[1]?.prompt).toContain('Previous answer:\nnope');
    expect(a.usage.totalTokens).toBe(20);
  });

  it('reports a rejecting async hook through onHookError', async () => {
    const onHookError = vi.fn();
    const { modelProvider } = scripted([text('{"value":1}')]);
    const llm = createLlmClient(modelProvider, {
      usageHook: () => Promise.reject(new Error('db gone')),
      onHookError,
    });
    await llm.generate(request);
    await vi.waitFor(() => expect(onHookError).toHaveBeenCalledTimes(1));
    expect(onHookError.mock.calls[0]?.[1]).toMatchObject({ node: 'verification' });
  });
});

describe('parseRetryAfter', () => {
  const headers = (values: Record<string, string>) => new Headers(values);
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2_000);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '150', 'retry-after': '9' }))).toBe(150);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(
      3_000,
    );
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});
