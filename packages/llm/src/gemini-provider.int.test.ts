// The Gemini provider through the real @google/genai SDK against a loopback fake of the
// generateContent endpoint.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UsageEvent } from '@tandem/observability';
import { z } from 'zod';
import { createLlmClient, type CreateLlmClientOptions } from './create-llm-client';
import { createGeminiProvider } from './gemini-provider';
import { LlmCallError, type LlmRequest } from './port';
import {
  startFakeHttpServer,
  type FakeHttpServer,
  type FakeResponse,
} from './test-support/fake-http-server';

const API_KEY = 'gemini-test-key-0123456789';
const Verdict = z.object({ success: z.boolean(), reason: z.string() });

function geminiOk(text: string, usage: Record<string, number> = {}): FakeResponse {
  return {
    body: {
      candidates: [
        { content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 },
      ],
      usageMetadata: {
        promptTokenCount: 100,
        candidatesTokenCount: 20,
        cachedContentTokenCount: 40,
        thoughtsTokenCount: 7,
        totalTokenCount: 127,
        ...usage,
      },
      modelVersion: 'gemini-2.5-flash-001',
    },
  };
}

function geminiError(
  status: number,
  headers: Record<string, string> = {},
  details: unknown[] = [],
): FakeResponse {
  return {
    status,
    headers,
    body: { error: { code: status, message: `fake error ${status}`, status: 'ERR', details } },
  };
}

function request(overrides: Partial<LlmRequest<typeof Verdict>> = {}): LlmRequest<typeof Verdict> {
  return {
    node: 'verification',
    actionType: 'VERIFICATION',
    system: 'You verify browser actions.',
    prompt: 'Did the click work?',
    schema: Verdict,
    schemaName: 'verification_verdict',
    context: { tenantId: 't1', taskId: 'task-1' },
    ...overrides,
  };
}

describe('Gemini provider (real SDK, fake server)', () => {
  let server: FakeHttpServer;
  let events: UsageEvent[];

  beforeEach(async () => {
    server = await startFakeHttpServer();
    events = [];
  });
  afterEach(async () => {
    await server.close();
  });

  const client = (options: CreateLlmClientOptions = {}, models?: Record<string, string>) =>
    createLlmClient(
      createGeminiProvider({
        apiKey: API_KEY,
        baseUrl: server.url,
        ...(models !== undefined ? { models } : {}),
      }),
      { retryBaseDelayMs: 5, usageHook: (event) => void events.push(event), ...options },
    );

  it('sends structured-output config and maps output and usage', async () => {
    server.enqueue(geminiOk('{"success":true,"reason":"menu opened"}'));
    const result = await client().generate(
      request({ images: [{ mimeType: 'image/png', data: 'aGVsbG8=' }] }),
    );

    expect(result.output).toEqual({ success: true, reason: 'menu opened' });
    expect(result.provider).toBe('GOOGLE');
    expect(result.model).toBe('gemini-2.5-flash-001');
    expect(result.usage).toEqual({
      inputTokens: 100,
      outputTokens: 20,
      cachedInputTokens: 40,
      thinkingTokens: 7,
      totalTokens: 127,
    });
    expect(result.generationId).toMatch(/^[0-9a-f-]{36}$/);

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0];
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(sent?.headers['x-goog-api-key']).toBe(API_KEY);
    const body = sent?.body as {
      contents: { role: string; parts: Record<string, unknown>[] }[];
      systemInstruction: { parts: { text: string }[] };
      generationConfig: { responseMimeType: string; responseJsonSchema: Record<string, unknown> };
    };
    expect(body.generationConfig.responseMimeType).toBe('application/json');
    expect(body.generationConfig.responseJsonSchema).toMatchObject({
      type: 'object',
      properties: { success: { type: 'boolean' }, reason: { type: 'string' } },
      required: ['success', 'reason'],
    });
    expect(body.generationConfig.responseJsonSchema).not.toHaveProperty('$schema');
    expect(body.systemInstruction.parts[0]?.text).toBe('You verify browser actions.');
    expect(body.contents[0]?.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'aGVsbG8=' } },
      { text: 'Did the click work?' },
    ]);

    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({
      generationId: result.generationId,
      node: 'verification',
      actionType: 'VERIFICATION',
      provider: 'GOOGLE',
      model: 'gemini-2.5-flash-001',
      usage: result.usage,
      context: { tenantId: 't1', taskId: 'task-1' },
      input: { system: 'You verify browser actions.', prompt: 'Did the click work?' },
      output: { success: true, reason: 'menu opened' },
    });
    expect(events[0]?.error).toBeUndefined();
  });

  it('chooses the model per node, with a default', async () => {
    server.enqueue(
      geminiOk('{"success":true,"reason":"a"}'),
      geminiOk('{"success":true,"reason":"b"}'),
    );
    const llm = client({}, { planning: 'gemini-2.5-pro' });
    await llm.generate(request({ node: 'planning', actionType: 'PLANNING' }));
    await llm.generate(request());
    expect(server.requests.map((r) => r.path)).toEqual([
      '/v1beta/models/gemini-2.5-pro:generateContent',
      '/v1beta/models/gemini-2.5-flash:generateContent',
    ]);
  });

  it('retries a 429 and honours its Retry-After header', async () => {
    server.enqueue(
      geminiError(429, { 'retry-after': '0.3' }),
      geminiOk('{"success":true,"reason":"ok"}'),
    );
    const started = performance.now();
    const result = await client().generate(request());
    const elapsed = performance.now() - started;
    expect(result.output.success).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(290);
  });

  it('retries a response body cut off mid-JSON, as a network failure', async () => {
    const whole = JSON.stringify(geminiOk('{"success":true,"reason":"ok"}').body);
    server.enqueue({ raw: whole.slice(0, 60) }, geminiOk('{"success":true,"reason":"ok"}'));
    const result = await client().generate(request());
    expect(result.output.success).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it("honours Gemini's RetryInfo retryDelay in the error body", async () => {
    server.enqueue(
      geminiError(429, {}, [
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.25s' },
      ]),
      geminiOk('{"success":true,"reason":"ok"}'),
    );
    const started = performance.now();
    await client().generate(request());
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up with LlmCallError after maxRetries on repeated 500s, reporting the failure once', async () => {
    server.setHandler(() => geminiError(500));
    const error = await client({ maxRetries: 2 })
      .generate(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    const callError = error as LlmCallError;
    expect(callError.message).toContain('after 2 retries');
    expect(callError.message).toContain('500');
    expect(callError.message).not.toContain(API_KEY);
    expect(callError.details).toMatchObject({
      node: 'verification',
      provider: 'GOOGLE',
      retryable: true,
    });
    expect(server.requests).toHaveLength(3);
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]?.error).toContain('500');
  });

  it('does not retry a 400', async () => {
    server.setHandler(() => geminiError(400));
    await expect(client().generate(request())).rejects.toMatchObject({
      name: 'LlmCallError',
      details: { retryable: false },
    });
    expect(server.requests).toHaveLength(1);
  });

  describe('safety blocks', () => {
    /** The candidate stopped by the safety filter: the prompt's tokens were still spent. */
    const candidateBlocked: FakeResponse = {
      body: {
        candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'SAFETY', index: 0 }],
        usageMetadata: { promptTokenCount: 100, cachedContentTokenCount: 40, totalTokenCount: 100 },
        modelVersion: 'gemini-2.5-flash-001',
      },
    };

    it('samples a blocked candidate again once, billing both attempts in one usage event', async () => {
      server.enqueue(candidateBlocked, geminiOk('{"success":true,"reason":"ok"}'));
      const result = await client().generate(request());
      expect(result.output).toEqual({ success: true, reason: 'ok' });
      expect(server.requests).toHaveLength(2);
      // Sampled again as it was asked, not repaired.
      expect(server.requests[1]?.body).toEqual(server.requests[0]?.body);
      expect(result.usage).toEqual({
        inputTokens: 200,
        outputTokens: 20,
        cachedInputTokens: 80,
        thinkingTokens: 7,
        totalTokens: 227,
      });
      await vi.waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]).toMatchObject({ usage: result.usage });
      expect(events[0]?.error).toBeUndefined();
    });

    it('blocked twice: asked once more with a note that its answers were blocked', async () => {
      server.enqueue(
        candidateBlocked,
        candidateBlocked,
        geminiOk('{"success":true,"reason":"ok"}'),
      );
      const result = await client().generate(request());
      expect(result.output).toEqual({ success: true, reason: 'ok' });
      expect(server.requests).toHaveLength(3);
      expect(JSON.stringify(server.requests[2]?.body)).toContain('blocked by the safety filter');
    });

    it('blocked when rephrased too: a non-retryable LlmCallError after three attempts', async () => {
      server.setHandler(() => candidateBlocked);
      const error = await client()
        .generate(request())
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmCallError);
      expect((error as LlmCallError).message).toMatch(/failed: .*finishReason SAFETY/);
      expect((error as LlmCallError).details.retryable).toBe(false);
      expect(server.requests).toHaveLength(3);
      await vi.waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]?.usage.inputTokens).toBe(300);
    });

    it('does not retry a blocked prompt', async () => {
      server.setHandler(() => ({
        body: {
          promptFeedback: { blockReason: 'SAFETY' },
          usageMetadata: { promptTokenCount: 100, totalTokenCount: 100 },
        },
      }));
      const error = await client()
        .generate(request())
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmCallError);
      expect((error as LlmCallError).message).toMatch(
        /failed: Gemini blocked the prompt \(SAFETY\)/,
      );
      expect((error as LlmCallError).details.retryable).toBe(false);
      expect(server.requests).toHaveLength(1);
    });
  });

  it('repairs invalid JSON once, sending the error back, and sums usage of both attempts', async () => {
    server.enqueue(
      geminiOk('{"success": true, "reason": ', { totalTokenCount: 127 }),
      geminiOk('{"success":true,"reason":"fixed"}'),
    );
    const result = await client().generate(request());
    expect(result.output.reason).toBe('fixed');
    expect(server.requests).toHaveLength(2);
    const secondPrompt = (
      server.requests[1]?.body as { contents: { parts: { text?: string }[] }[] }
    ).contents[0]?.parts.at(-1)?.text;
    expect(secondPrompt).toContain('Did the click work?');
    expect(secondPrompt).toContain('not valid JSON');
    expect(result.usage).toEqual({
      inputTokens: 200,
      outputTokens: 40,
      cachedInputTokens: 80,
      thinkingTokens: 14,
      totalTokens: 254,
    });
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]?.usage.totalTokens).toBe(254);
  });

  it('fails with LlmCallError when the output misses the schema twice (one repair only)', async () => {
    server.setHandler(() => geminiOk('{"success":"yes"}'));
    const error = await client()
      .generate(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).message).toMatch(/did not match the schema after one repair/);
    expect((error as LlmCallError).details.retryable).toBe(false);
    expect(server.requests).toHaveLength(2);
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]?.usage.totalTokens).toBe(254);
    expect(events[0]?.error).toMatch(/schema/);
  });

  it('times out a slow attempt and retries it', async () => {
    server.enqueue({ ...geminiOk('{"success":true,"reason":"late"}'), delayMs: 1_000 });
    server.enqueue(geminiOk('{"success":true,"reason":"on time"}'));
    const result = await client({ timeoutMs: 150 }).generate(request());
    expect(result.output.reason).toBe('on time');
    expect(server.requests).toHaveLength(2);
  });

  it('fails with a retryable LlmCallError when every attempt times out', async () => {
    server.setHandler(() => ({ ...geminiOk('{}'), delayMs: 1_000 }));
    const started = performance.now();
    const error = await client({ timeoutMs: 100, maxRetries: 1 })
      .generate(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).message).toMatch(/did not answer within 100 ms/);
    expect((error as LlmCallError).details.retryable).toBe(true);
    // Two attempts of 100 ms, not two full 1 s server delays (loose bound: CI machines stall).
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    // Abort once the request has reached the server (not on a timer that a loaded machine
    // could beat before the SDK even sends it).
    server.setHandler(() => {
      setTimeout(() => controller.abort(), 10);
      return { ...geminiOk('{}'), delayMs: 2_000 };
    });
    const error = await client()
      .generate(request({ signal: controller.signal }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).message).toMatch(/aborted/);
    expect(server.requests).toHaveLength(1);
  });

  it('a throwing or slow usage hook never breaks or delays the call', async () => {
    server.enqueue(
      geminiOk('{"success":true,"reason":"a"}'),
      geminiOk('{"success":true,"reason":"b"}'),
    );
    const hookErrors: unknown[] = [];
    const throwing = client({
      usageHook: () => {
        throw new Error('store down');
      },
      onHookError: (error) => hookErrors.push(error),
    });
    await expect(throwing.generate(request())).resolves.toMatchObject({ output: { reason: 'a' } });
    await vi.waitFor(() => expect(hookErrors).toHaveLength(1));
    expect((hookErrors[0] as Error).message).toBe('store down');

    const slow = client({ usageHook: () => new Promise((resolve) => setTimeout(resolve, 5_000)) });
    const started = performance.now();
    await slow.generate(request());
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
