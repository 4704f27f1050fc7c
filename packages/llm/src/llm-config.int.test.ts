// Which client a configuration produces, proven by where the requests actually go.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLlmClientFromConfig, LlmConfigError } from './llm-config';
import { LlmNotConfiguredError, type LlmRequest } from './port';
import { createUnconfiguredLlmClient } from './unconfigured-client';
import { startFakeHttpServer, type FakeHttpServer } from './test-support/fake-http-server';

const Out = z.object({ ok: z.boolean() });
const request: LlmRequest<typeof Out> = {
  node: 'planning',
  actionType: 'PLANNING',
  system: 's',
  prompt: 'p',
  schema: Out,
  context: { tenantId: 't1' },
};

describe('createLlmClientFromConfig', () => {
  let server: FakeHttpServer;
  beforeEach(async () => {
    server = await startFakeHttpServer((req) =>
      req.path.includes(':generateContent')
        ? { body: { candidates: [{ content: { parts: [{ text: '{"ok":true}' }] } }] } }
        : {
            body: {
              id: 'x',
              object: 'chat.completion',
              created: 1,
              model: 'llama3',
              choices: [
                {
                  index: 0,
                  message: { role: 'assistant', content: '{"ok":true}' },
                  finish_reason: 'stop',
                },
              ],
            },
          },
    );
  });
  afterEach(async () => {
    await server.close();
  });

  it('uses Gemini when a Gemini key is set, even with an OpenAI-compatible endpoint too', async () => {
    const llm = createLlmClientFromConfig({
      geminiApiKey: 'g-key-1234',
      geminiBaseUrl: server.url,
      geminiModel: 'gemini-2.5-flash-lite',
      geminiModels: { planning: 'gemini-2.5-pro' },
      baseUrl: `${server.url}/v1`,
      model: 'llama3',
    });
    expect(llm.configured).toBe(true);
    expect(llm.provider).toBe('GOOGLE');
    await expect(llm.generate(request)).resolves.toMatchObject({ output: { ok: true } });
    await llm.generate({ ...request, node: 'verification', actionType: 'VERIFICATION' });
    expect(server.requests.map((r) => r.path)).toEqual([
      '/v1beta/models/gemini-2.5-pro:generateContent',
      '/v1beta/models/gemini-2.5-flash-lite:generateContent',
    ]);
  });

  it('uses the OpenAI-compatible endpoint when only baseUrl is set', async () => {
    const llm = createLlmClientFromConfig({
      baseUrl: `${server.url}/v1`,
      model: 'llama3',
      geminiApiKey: '',
    });
    expect(llm.provider).toBe('OPENAI_COMPATIBLE');
    await expect(llm.generate(request)).resolves.toMatchObject({
      output: { ok: true },
      model: 'llama3',
    });
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('says which models read images: Gemini always, an OpenAI-compatible one by name or config', () => {
    const gemini = createLlmClientFromConfig({ geminiApiKey: 'g-key-1234' });
    expect(gemini.acceptsImages('action_generation')).toBe(true);
    const text = createLlmClientFromConfig({
      baseUrl: `${server.url}/v1`,
      model: 'qwen2.5:7b-instruct',
      models: { action_generation: 'qwen2.5vl:7b' },
    });
    expect(text.acceptsImages('planning')).toBe(false);
    expect(text.acceptsImages('action_generation')).toBe(true);
    const told = createLlmClientFromConfig({
      baseUrl: `${server.url}/v1`,
      model: 'my-finetune',
      vision: true,
    });
    expect(told.acceptsImages('action_generation')).toBe(true);
    expect(
      createLlmClientFromConfig({ geminiApiKey: 'k-1234', vision: false }).acceptsImages(
        'action_generation',
      ),
    ).toBe(false);
  });

  it('requires a model with baseUrl, and a valid URL', () => {
    expect(() => createLlmClientFromConfig({ baseUrl: 'http://localhost:11434/v1' })).toThrow(
      LlmConfigError,
    );
    expect(() => createLlmClientFromConfig({ baseUrl: 'http://localhost:11434/v1' })).toThrow(
      /LLM_MODEL/,
    );
    expect(() => createLlmClientFromConfig({ baseUrl: 'not a url', model: 'm' })).toThrow(
      /not a valid URL/,
    );
  });

  it('is unconfigured without a key or endpoint', async () => {
    const llm = createLlmClientFromConfig({});
    expect(llm.configured).toBe(false);
    expect(llm.provider).toBeNull();
    expect(llm.acceptsImages('action_generation')).toBe(false);
    await expect(llm.generate(request)).rejects.toBeInstanceOf(LlmNotConfiguredError);
  });
});

describe('createUnconfiguredLlmClient', () => {
  it('rejects every call with a message that says how to configure a model', async () => {
    const llm = createUnconfiguredLlmClient();
    const error = await llm.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmNotConfiguredError);
    expect((error as Error).message).toMatch(/GEMINI_API_KEY/);
    expect((error as Error).message).toMatch(/LLM_BASE_URL/);
  });
});
