import { GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  geminiTextResponse,
  readGeminiRequest,
  startGeminiWire,
  type GeminiWire,
  type WireHandler,
} from './gemini-wire';

/** Each call answered with `answer(call)` as JSON text, billed with its system prompt. */
const answering =
  (answer: (call: ReturnType<typeof readGeminiRequest>) => unknown): WireHandler =>
  ({ body }) => {
    const call = readGeminiRequest(body);
    return geminiTextResponse(
      JSON.stringify(answer(call)),
      call.system.length + call.prompt.length,
    );
  };

let wire: GeminiWire | undefined;
afterEach(async () => {
  await wire?.close();
});

describe('the Gemini wire', () => {
  it('answers the real SDK with what the scenario says, usage at 4 characters a token', async () => {
    const seen: { system: string; prompt: string }[] = [];
    wire = await startGeminiWire(
      answering((call) => {
        seen.push({ system: call.system, prompt: call.prompt });
        return { answer: 'yes' };
      }),
    );
    const sdk = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: wire.url } });
    const response = await sdk.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Goal: 12345678',
      config: { systemInstruction: 'You are a test.' },
    });
    expect(seen).toEqual([{ system: 'You are a test.', prompt: 'Goal: 12345678' }]);
    expect(JSON.parse(response.text ?? '')).toEqual({ answer: 'yes' });
    expect(response.usageMetadata?.promptTokenCount).toBe(Math.ceil(29 / 4));
  });

  it('turns down a request that is no generateContent call (an embedding)', async () => {
    wire = await startGeminiWire(answering(() => ({})));
    const res = await fetch(`${wire.url}/v1beta/models/e:embedContent`, {
      method: 'POST',
      body: JSON.stringify({ content: { parts: [{ text: 'x' }] } }),
    });
    expect(res.status).toBe(500);
  });

  it('answers a failing scenario with a Gemini error', async () => {
    wire = await startGeminiWire(() => {
      throw new Error('no script');
    });
    const res = await fetch(`${wire.url}/v1beta/models/x:generateContent`, {
      method: 'POST',
      body: '{}',
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { code: 500, message: 'Error: no script' } });
  });
});
