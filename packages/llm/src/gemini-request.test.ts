// The generateContent parameters and the Retry-After capture, without a network.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { geminiRequest, retryAfterCapturingFetch } from './gemini-request';
import type { ProviderRequest } from './provider';

const base: ProviderRequest = {
  node: 'planning',
  model: 'gemini-2.5-flash',
  system: 'be brief',
  prompt: 'the prompt',
  jsonSchema: { type: 'object' },
  schemaName: 'plan',
  images: [{ mimeType: 'image/png', data: 'AAAA' }],
  context: { tenantId: 't1' },
  signal: new AbortController().signal,
  repairReason: null,
  origin: {
    node: 'planning',
    actionType: 'PLANNING',
    system: 'be brief',
    prompt: 'the prompt',
    schema: z.object({}),
    context: { tenantId: 't1' },
  },
};
const noFetch: typeof globalThis.fetch = () =>
  Promise.reject(new Error('no network in unit tests'));

describe('geminiRequest', () => {
  it('puts images before the prompt and asks for JSON matching the schema', () => {
    const params = geminiRequest(base, {}, noFetch);
    expect(params.model).toBe('gemini-2.5-flash');
    expect(params.contents).toEqual([
      {
        role: 'user',
        parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }, { text: 'the prompt' }],
      },
    ]);
    expect(params.config).toEqual({
      systemInstruction: 'be brief',
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object' },
      abortSignal: base.signal,
      httpOptions: { fetch: noFetch },
    });
  });

  it('sends a system instruction, temperature and thinking budget only when set', () => {
    const config = geminiRequest(
      { ...base, system: '' },
      { temperature: 0, thinkingBudget: 0 },
      noFetch,
    ).config;
    expect(config).not.toHaveProperty('systemInstruction');
    expect(config).toMatchObject({ temperature: 0, thinkingConfig: { thinkingBudget: 0 } });
  });
});

describe('retryAfterCapturingFetch', () => {
  const answering =
    (...responses: Response[]): typeof globalThis.fetch =>
    () => {
      const next = responses.shift();
      return next === undefined ? Promise.reject(new Error('no response')) : Promise.resolve(next);
    };

  it('remembers Retry-After of a failed response only', async () => {
    const capture = retryAfterCapturingFetch(
      answering(
        new Response('{}', { status: 200, headers: { 'retry-after': '9' } }),
        new Response('{}', { status: 429, headers: { 'retry-after': '2' } }),
      ),
    );
    const ok = await capture.fetch('http://gemini.invalid/');
    expect(ok.status).toBe(200);
    expect(capture.retryAfterMs()).toBeUndefined();
    await capture.fetch('http://gemini.invalid/');
    expect(capture.retryAfterMs()).toBe(2_000);
  });

  it('keeps each capture to itself', async () => {
    const limited = new Response('{}', { status: 429, headers: { 'retry-after': '3' } });
    const first = retryAfterCapturingFetch(answering(limited));
    const second = retryAfterCapturingFetch(answering());
    await first.fetch('http://gemini.invalid/');
    expect(first.retryAfterMs()).toBe(3_000);
    expect(second.retryAfterMs()).toBeUndefined();
  });
});
