// The OpenAI-compatible provider through the real openai SDK against a loopback fake of
// /v1/chat/completions (what Ollama, vLLM and llama.cpp serve).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UsageEvent } from '@tandem/observability';
import { z } from 'zod';
import { createLlmClient, type CreateLlmClientOptions } from './create-llm-client';
import { createOpenAiCompatibleProvider } from './openai-compatible-provider';
import { LlmCallError, type LlmRequest } from './port';
import {
  startFakeHttpServer,
  unusedPort,
  type FakeHttpServer,
  type FakeResponse,
} from './test-support/fake-http-server';

const API_KEY = 'sk-local-test-key-987654321';
const Plan = z.object({ steps: z.array(z.string()).min(1) });

function completion(content: string | null, extra: Record<string, unknown> = {}): FakeResponse {
  return {
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'qwen2.5:7b',
      choices: [
        { index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: 'stop' },
      ],
      usage: {
        prompt_tokens: 50,
        completion_tokens: 30,
        total_tokens: 80,
        prompt_tokens_details: { cached_tokens: 8 },
        completion_tokens_details: { reasoning_tokens: 10 },
      },
    },
  };
}

const error = (status: number, headers: Record<string, string> = {}): FakeResponse => ({
  status,
  headers,
  body: { error: { message: `fake error ${status}`, type: 'server_error' } },
});

function request(overrides: Partial<LlmRequest<typeof Plan>> = {}): LlmRequest<typeof Plan> {
  return {
    node: 'planning',
    actionType: 'PLANNING',
    system: 'You plan browser tasks.',
    prompt: 'Add a patient named Jas.',
    schema: Plan,
    schemaName: 'plan',
    context: { tenantId: 't1' },
    ...overrides,
  };
}

describe('OpenAI-compatible provider (real SDK, fake server)', () => {
  let server: FakeHttpServer;
  let events: UsageEvent[];

  beforeEach(async () => {
    server = await startFakeHttpServer();
    events = [];
  });
  afterEach(async () => {
    await server.close();
  });

  const client = (options: CreateLlmClientOptions = {}, baseUrl = `${server.url}/v1`) =>
    createLlmClient(
      createOpenAiCompatibleProvider({
        baseUrl,
        apiKey: API_KEY,
        model: 'qwen2.5:7b',
        models: { verification: 'llava:7b' },
      }),
      { retryBaseDelayMs: 5, usageHook: (event) => void events.push(event), ...options },
    );

  it('sends a json_schema response_format and maps output and usage', async () => {
    server.enqueue(completion('{"steps":["click Add","type Jas"]}'));
    const result = await client().generate(request());

    expect(result.output).toEqual({ steps: ['click Add', 'type Jas'] });
    expect(result.provider).toBe('OPENAI_COMPATIBLE');
    expect(result.model).toBe('qwen2.5:7b');
    // completion_tokens (30) includes 10 reasoning tokens: normalised to 20 output + 10 thinking.
    expect(result.usage).toEqual({
      inputTokens: 50,
      outputTokens: 20,
      cachedInputTokens: 8,
      thinkingTokens: 10,
      totalTokens: 80,
    });

    const sent = server.requests[0];
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = sent?.body as {
      model: string;
      messages: { role: string; content: unknown }[];
      response_format: {
        type: string;
        json_schema: { name: string; strict: boolean; schema: Record<string, unknown> };
      };
    };
    expect(body.model).toBe('qwen2.5:7b');
    expect(body.messages).toEqual([
      { role: 'system', content: 'You plan browser tasks.' },
      { role: 'user', content: 'Add a patient named Jas.' },
    ]);
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.name).toBe('plan');
    expect(body.response_format.json_schema.strict).toBe(false);
    expect(body.response_format.json_schema.schema).toMatchObject({
      type: 'object',
      properties: { steps: { type: 'array', items: { type: 'string' }, minItems: 1 } },
    });
    expect(body.response_format.json_schema.schema).not.toHaveProperty('$schema');

    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({ provider: 'OPENAI_COMPATIBLE', usage: result.usage });
  });

  it('sends images as data URLs and uses the per-node model', async () => {
    server.enqueue(completion('{"steps":["look"]}'));
    await client().generate(
      request({
        node: 'verification',
        actionType: 'VERIFICATION',
        images: [{ mimeType: 'image/jpeg', data: 'AAAA' }],
      }),
    );
    const body = server.requests[0]?.body as { model: string; messages: { content: unknown }[] };
    expect(body.model).toBe('llava:7b');
    expect(body.messages[1]?.content).toEqual([
      { type: 'text', text: 'Add a patient named Jas.' },
      { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
    ]);
  });

  it('retries a 429 and honours retry-after-ms', async () => {
    server.enqueue(error(429, { 'retry-after-ms': '300' }), completion('{"steps":["a"]}'));
    const started = performance.now();
    await client().generate(request());
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(server.requests).toHaveLength(2);
  });

  it('fails fast when Retry-After is longer than the longest wait', async () => {
    server.enqueue(error(429, { 'retry-after': '120' }));
    const result = await client({ maxRetryDelayMs: 1_000 })
      .generate(request())
      .catch((e: unknown) => e);
    expect(result).toBeInstanceOf(LlmCallError);
    expect((result as LlmCallError).message).toMatch(/retry after 120 s/);
    expect((result as LlmCallError).details.retryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up with LlmCallError after maxRetries on repeated 503s', async () => {
    server.setHandler(() => error(503));
    const result = await client()
      .generate(request())
      .catch((e: unknown) => e);
    expect(result).toBeInstanceOf(LlmCallError);
    expect((result as LlmCallError).message).toContain('after 3 retries');
    expect((result as LlmCallError).message).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(4);
  });

  it('retries network errors, then fails with LlmCallError', async () => {
    const port = await unusedPort();
    const result = await client({ maxRetries: 1 }, `http://127.0.0.1:${port}/v1`)
      .generate(request())
      .catch((e: unknown) => e);
    expect(result).toBeInstanceOf(LlmCallError);
    expect((result as LlmCallError).message).toMatch(/unreachable/);
    expect((result as LlmCallError).message).toContain('after 1 retry');
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]?.error).toMatch(/unreachable/);
  });

  it('repairs fenced, schema-violating output once', async () => {
    server.enqueue(completion('```json\n{"steps":[]}\n```'), completion('{"steps":["fixed"]}'));
    const result = await client().generate(request());
    expect(result.output.steps).toEqual(['fixed']);
    const second = server.requests[1]?.body as { messages: { content: string }[] };
    expect(second.messages[1]?.content).toMatch(/did not match the required schema/);
    expect(result.usage.totalTokens).toBe(160);
  });

  describe('content filter', () => {
    /** The output stopped by the content filter; the prompt passed it and was billed. */
    const filtered = (): FakeResponse => {
      const response = completion(null);
      const body = response.body as { choices: { finish_reason: string }[] };
      for (const choice of body.choices) choice.finish_reason = 'content_filter';
      return response;
    };

    it('samples filtered output again once, billing both attempts in one usage event', async () => {
      server.enqueue(filtered(), completion('{"steps":["a"]}'));
      const result = await client().generate(request());
      expect(result.output).toEqual({ steps: ['a'] });
      expect(server.requests).toHaveLength(2);
      // Sampled again as it was asked, not repaired: the filter said nothing of the schema.
      expect(server.requests[1]?.body).toEqual(server.requests[0]?.body);
      expect(result.usage).toEqual({
        inputTokens: 100,
        outputTokens: 40,
        cachedInputTokens: 16,
        thinkingTokens: 20,
        totalTokens: 160,
      });
      await vi.waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]).toMatchObject({ usage: result.usage });
      expect(events[0]?.error).toBeUndefined();
    });

    it('filtered twice: asked once more with a note that its answers were blocked', async () => {
      server.enqueue(filtered(), filtered(), completion('{"steps":["a"]}'));
      const result = await client().generate(request());
      expect(result.output).toEqual({ steps: ['a'] });
      expect(server.requests).toHaveLength(3);
      expect(JSON.stringify(server.requests[2]?.body)).toContain('blocked by the safety filter');
    });

    it('filtered when rephrased too: a non-retryable LlmCallError after three attempts', async () => {
      server.setHandler(() => filtered());
      const result = await client()
        .generate(request())
        .catch((e: unknown) => e);
      expect(result).toBeInstanceOf(LlmCallError);
      expect((result as LlmCallError).message).toMatch(/failed: .*content_filter/);
      expect((result as LlmCallError).details.retryable).toBe(false);
      expect(server.requests).toHaveLength(3);
      await vi.waitFor(() => expect(events).toHaveLength(1));
      expect(events[0]?.usage.totalTokens).toBe(240);
    });

    it('does not retry a prompt the filter rejected (an HTTP 400)', async () => {
      server.setHandler(() => ({
        status: 400,
        body: {
          error: {
            message: 'The prompt was filtered.',
            type: 'invalid_request_error',
            code: 'content_filter',
          },
        },
      }));
      const result = await client()
        .generate(request())
        .catch((e: unknown) => e);
      expect(result).toBeInstanceOf(LlmCallError);
      expect((result as LlmCallError).details.retryable).toBe(false);
      expect(server.requests).toHaveLength(1);
    });
  });

  it('reports a refusal as a non-retryable failure', async () => {
    server.setHandler(() => completion(null, { refusal: 'I cannot help with that.' }));
    await expect(client().generate(request())).rejects.toMatchObject({
      name: 'LlmCallError',
      details: { retryable: false },
    });
    expect(server.requests).toHaveLength(1);
  });
});
