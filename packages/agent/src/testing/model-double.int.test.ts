// The model double's wire, over real HTTP: what the e2e suite and every bench rely on when the
// server's SDK calls it (the SDK's side of the wire is @tandem/llm's gemini-wire test).
import { extractionSystem } from '@tandem/extraction';
import { afterEach, describe, expect, it } from 'vitest';
import { planningSystem } from '../nodes/planning/prompt';
import { JsonText, startModelDouble, type ModelDouble } from './model-double';

let model: ModelDouble | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const post = async (path: string, body: object) => {
  const res = await fetch(`${model?.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const generate = (system: string, text: string, more: object = {}) =>
  post('/v1beta/models/gemini-2.5-flash:generateContent', {
    systemInstruction: { parts: [{ text: system }] },
    contents: [{ role: 'user', parts: [{ text }] }],
    ...more,
  });

/** The JSON text of a generateContent answer. */
const textOf = (body: Record<string, unknown>) =>
  (body as { candidates: { content: { parts: { text: string }[] } }[] }).candidates[0]?.content
    .parts[0]?.text;

describe('the model double on the wire', () => {
  it('answers a node by its system prompt, counts and records the call', async () => {
    model = await startModelDouble((call) => ({ node: call.node, goal: call.goal }), {
      record: true,
    });
    const { body } = await generate(planningSystem, 'User goal: Add Jas\nPage: …');
    expect(JSON.parse(textOf(body) ?? '')).toEqual({ node: 'planning', goal: 'Add Jas' });
    expect(model.calls).toEqual({ planning: 1 });
    expect(model.log).toEqual([
      expect.objectContaining({
        node: 'planning',
        system: planningSystem,
        answer: '{"node":"planning","goal":"Add Jas"}',
      }),
    ]);
    // Billed as Gemini bills it: the system prompt counts.
    const usage = body.usageMetadata as { promptTokenCount: number };
    const sent = planningSystem.length + 'User goal: Add Jas\nPage: …'.length;
    expect(usage.promptTokenCount).toBe(Math.ceil(sent / 4));
  });

  it('answers the extraction sub-agent with its own reader, and JSON text as it is', async () => {
    model = await startModelDouble(() => ({ wrong: true }), {
      extract: (prompt) => new JsonText(`{"data":{"__proto__":${JSON.stringify(prompt.length)}}}`),
    });
    const system = extractionSystem({ structured: false, strict: false });
    const { body } = await generate(system, 'abc');
    expect(textOf(body)).toBe('{"data":{"__proto__":3}}');
    expect(model.calls).toEqual({ extraction: 1 });
  });

  it('hands tool-calling turns to `converse`, named by the tool they answer', async () => {
    const turns: unknown[] = [];
    model = await startModelDouble(() => ({}), {
      converse: (body) => (turns.push(body), { candidates: [] }),
      record: true,
      before: (call) => void turns.push(call.goal),
    });
    const tools = [{ functionDeclarations: [{ name: 'complete_extraction' }] }];
    const answered = {
      role: 'user',
      parts: [{ functionResponse: { name: 'complete_extraction', response: { output: 'ok' } } }],
    };
    await generate('You extract documents.', 'Extract it', { tools });
    await post('/v1beta/models/m:generateContent', { contents: [answered], tools });
    expect(turns.filter((t) => typeof t === 'string')).toEqual([
      'after:start',
      'after:complete_extraction',
    ]);
    expect(model.calls).toEqual({ document_extraction: 2 });
  });

  it('serves fake embeddings only when asked, at the size asked for', async () => {
    model = await startModelDouble(() => ({}));
    const one = { content: { parts: [{ text: 'patients' }] }, outputDimensionality: 8 };
    expect((await post('/v1beta/models/e:embedContent', one)).status).toBe(500);
    await model.close();
    model = await startModelDouble(() => ({}), { embeddings: true });
    const { body } = await post('/v1beta/models/e:batchEmbedContents', { requests: [one, one] });
    const vectors = (body.embeddings as { values: number[] }[]).map((e) => e.values);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(8);
    expect(vectors[0]).toEqual(vectors[1]);
    expect(model.calls).toEqual({ embeddings: 1 });
  });

  it("tries the caller's own routes first", async () => {
    model = await startModelDouble(() => ({}), {
      route: ({ path }) => (path === '/__control' ? { ok: true } : undefined),
    });
    expect((await post('/__control', {})).body).toEqual({ ok: true });
    expect(model.calls).toEqual({});
  });
});
