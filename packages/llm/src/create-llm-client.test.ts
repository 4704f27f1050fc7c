// The client wrapper's policies against an in-memory provider (no I/O).
import { describe, expect, it, vi } from 'vitest';
import type { UsageEvent } from '@tandem/observability';
import { z } from 'zod';
import { createLlmClient } from './create-llm-client';
import { LlmCallError, type LlmRequest } from './port';
import {
  ProviderError,
  parseRetryAfter,
  type ModelProvider,
  type ProviderRequest,
} from './provider';

const Out = z.object({ value: z.number() });
const request: LlmRequest<typeof Out> = {
  node: 'verification',
  actionType: 'VERIFICATION',
  system: 'sys',
  prompt: 'prompt',
  schema: Out,
  context: { tenantId: 't1' },
};
const usage = (total: number) => ({
  inputTokens: total,
  outputTokens: 0,
  cachedInputTokens: 0,
  thinkingTokens: 0,
  totalTokens: total,
});

function fakeProvider(answers: ((req: ProviderRequest) => Promise<string> | string)[]) {
  const seen: ProviderRequest[] = [];
  const provider: ModelProvider = {
    name: 'SCRIPTED',
    modelFor: (node) => `model-${node}`,
    async complete(req) {
      seen.push(req);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('no more answers');
      return { text: await answer(req), usage: usage(10), model: req.model };
    },
  };
  return { provider, seen };
}

describe('createLlmClient', () => {
  it('backs off exponentially with jitter between transient failures', async () => {
    const fail = () => {
      throw new ProviderError('HTTP 503', { kind: 'http', status: 503 });
    };
    const { provider, seen } = fakeProvider([fail, fail, () => '{"value":1}']);
    const started = performance.now();
    const llm = createLlmClient(provider, { retryBaseDelayMs: 40, random: () => 1 });
    await expect(llm.generate(request)).resolves.toMatchObject({
      output: { value: 1 },
      model: 'model-verification',
    });
    // 40 ms then 80 ms (random() = 1 means no jitter reduction).
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    expect(seen).toHaveLength(3);
  });

  it('does not retry with maxRetries 0, and sums usage a failed attempt reported', async () => {
    const events: UsageEvent[] = [];
    const { provider, seen } = fakeProvider([
      () => {
        throw new ProviderError('blocked', {
          kind: 'invalid_response',
          retryable: false,
          usage: usage(7),
        });
      },
    ]);
    const llm = createLlmClient(provider, { maxRetries: 0, usageHook: (e) => void events.push(e) });
    await expect(llm.generate(request)).rejects.toBeInstanceOf(LlmCallError);
    expect(seen).toHaveLength(1);
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({
      usage: { totalTokens: 7 },
      error: expect.stringMatching(/blocked/),
    });
  });

  it('times out a provider that ignores its signal', async () => {
    const { provider } = fakeProvider([() => new Promise<string>(() => {})]);
    const llm = createLlmClient(provider, { timeoutMs: 30, maxRetries: 0 });
    await expect(llm.generate(request)).rejects.toThrow(/did not answer within 30 ms/);
  });

  it('lets programming errors through unchanged, still reporting the call', async () => {
    const events: UsageEvent[] = [];
    const bug = new RangeError('bug in provider');
    const { provider } = fakeProvider([
      () => {
        throw bug;
      },
    ]);
    const llm = createLlmClient(provider, { usageHook: (e) => void events.push(e) });
    await expect(llm.generate(request)).rejects.toBe(bug);
    await vi.waitFor(() => expect(events).toHaveLength(1));
  });

  it('gives each call its own generation id and sends the repair reason to the provider', async () => {
    const { provider, seen } = fakeProvider([
      () => 'nope',
      () => '{"value":2}',
      () => '{"value":3}',
    ]);
    const llm = createLlmClient(provider);
    const a = await llm.generate(request);
    const b = await llm.generate(request);
    expect(a.generationId).not.toBe(b.generationId);
    expect(seen.map((r) => r.repairReason === null)).toEqual([true, false, true]);
    expect(seen[1]?.prompt).toContain('Previous answer:\nnope');
    expect(a.usage.totalTokens).toBe(20);
  });

  it('reports a rejecting async hook through onHookError', async () => {
    const onHookError = vi.fn();
    const { provider } = fakeProvider([() => '{"value":1}']);
    const llm = createLlmClient(provider, {
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
