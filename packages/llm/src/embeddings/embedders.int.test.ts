// Both embedders through their real SDKs against the loopback embeddings server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeEmbeddingsServer,
  type FakeEmbeddingsServer,
} from '../test-support/fake-embeddings';
import { createGeminiEmbedder } from './gemini-embedder';
import { createOpenAiEmbedder } from './openai-embedder';
import { EmbeddingError, type EmbeddingUsage } from './port';

let server: FakeEmbeddingsServer;
beforeAll(async () => {
  server = await startFakeEmbeddingsServer({ dimensions: 32 });
});
afterAll(() => server.close());

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * (b[i] ?? 0), 0);

describe('OpenAI-compatible embedder', () => {
  it('embeds in order, in batches of 64, and reports the usage', async () => {
    const usage: EmbeddingUsage[] = [];
    const embedder = createOpenAiEmbedder({
      baseUrl: server.openAiUrl,
      model: 'nomic-embed-text',
      onUsage: (u) => usage.push(u),
    });
    const texts = Array.from({ length: 70 }, (_, i) => `passage number ${i}`);
    const vectors = await embedder.embed(texts, 'document');
    expect(vectors).toHaveLength(70);
    expect(vectors.every((v) => v.length === 32)).toBe(true);
    expect(server.requests.filter((r) => r.api === 'openai').map((r) => r.texts.length)).toEqual([
      64, 6,
    ]);
    expect(usage.map((u) => u.model)).toEqual(['nomic-embed-text', 'nomic-embed-text']);
    expect(embedder.id).toBe('openai-compatible:nomic-embed-text');
  });

  it('puts a paraphrase near its passage', async () => {
    const embedder = createOpenAiEmbedder({ baseUrl: server.openAiUrl, model: 'm' });
    const [passage, paraphrase, unrelated] = await embedder.embed(
      [
        'The Starter plan allows 120 requests per minute.',
        'How fast may I call you before you throttle me?',
        'Patients are listed by surname.',
      ],
      'document',
    );
    expect(cosine(passage ?? [], paraphrase ?? [])).toBeGreaterThan(
      cosine(unrelated ?? [], paraphrase ?? []),
    );
  });

  it('fails with an EmbeddingError that never shows the key', async () => {
    const failing = await startFakeEmbeddingsServer({ failWith: 401 });
    try {
      const embedder = createOpenAiEmbedder({
        baseUrl: failing.openAiUrl,
        model: 'm',
        apiKey: 'sk-secret-value-123',
      });
      const error = await embedder.embed(['x'], 'query').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmbeddingError);
      expect(String((error as Error).message)).not.toContain('sk-secret-value-123');
    } finally {
      await failing.close();
    }
  });
});

describe('Gemini embedder', () => {
  it('embeds documents and queries through @google/genai with task types', async () => {
    const embedder = createGeminiEmbedder({
      apiKey: 'fake-gemini-key',
      baseUrl: server.geminiUrl,
      dimensions: 32,
    });
    const vectors = await embedder.embed(['one passage', 'another passage'], 'document');
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(32);
    const [query] = await embedder.embed(['a question'], 'query');
    expect(query).toHaveLength(32);
    expect(embedder.id).toBe('gemini:gemini-embedding-001');
  });
});
