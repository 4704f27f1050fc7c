// Hybrid retrieval over a real in-memory libSQL store (FTS5 + native vectors), with the query
// and documents embedded by the loopback embeddings server through the real OpenAI SDK.
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiEmbedder } from '@tandem/llm';
import type { Embedder } from '@tandem/llm';
import { KnowledgeIngestion } from '../ingestion/service';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '@tandem/llm/testing';
import { createKnowledgeRetriever } from './hybrid';

const DOCS = {
  'rate-limits.md':
    '# Rate limits\n\nThe Starter plan allows 120 requests per minute; Growth allows 600.\n',
  'webhooks.md':
    '# Webhooks\n\nEvery delivery carries the X-Tandem-Signature header, an HMAC-SHA256 of the body.\n',
  'patients.md':
    '# Patients API\n\nCreate a patient with POST /v2/patients; the surname field is required.\n',
};

let server: FakeEmbeddingsServer;
let store: Store;
let tenantId: string;
let embedder: Embedder;

beforeAll(async () => {
  server = await startFakeEmbeddingsServer({ dimensions: 32 });
  embedder = createOpenAiEmbedder({ baseUrl: server.openAiUrl, model: 'fake' });
});
afterAll(() => server.close());
beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  tenantId = (await store.tenants.create({ name: 'acme' })).id;
  const ingestion = new KnowledgeIngestion({
    knowledge: store.knowledge,
    embedder,
    quotas: { documents: 100, bytes: 10_000_000 },
  });
  for (const [fileName, text] of Object.entries(DOCS)) {
    await ingestion.ingestFile({
      tenantId,
      fileName,
      bytes: new TextEncoder().encode(text),
      domain: 'docs.example.com',
    });
  }
});
afterEach(() => store.close());

const url = 'https://docs.example.com/guide';

describe('hybrid retrieval', () => {
  it('finds a paraphrase by vector that shares no word with the passage', async () => {
    const query = 'how fast may I call before you throttle me';
    const hybrid = createKnowledgeRetriever({ knowledge: store.knowledge, embedder });
    const result = await hybrid.retrieve({ tenantId, url, query, limit: 3 });
    expect(result.mode).toBe('hybrid');
    expect(result.chunks[0]?.chunk.headingPath).toEqual(['Rate limits']);
    expect(result.chunks[0]?.vectorRank).toBe(1);

    const lexical = createKnowledgeRetriever({ knowledge: store.knowledge, embedder: null });
    const words = await lexical.retrieve({ tenantId, url, query, limit: 3 });
    expect(words.mode).toBe('lexical');
    expect(words.chunks.map((c) => c.chunk.headingPath[0])).not.toContain('Rate limits');
  });

  it('ranks an exact name first lexically and fuses both ranks', async () => {
    const hybrid = createKnowledgeRetriever({ knowledge: store.knowledge, embedder });
    const result = await hybrid.retrieve({
      tenantId,
      url,
      query: 'X-Tandem-Signature header',
      limit: 3,
    });
    expect(result.chunks[0]?.chunk.headingPath).toEqual(['Webhooks']);
    expect(result.chunks[0]?.lexicalRank).toBe(1);
  });

  it('falls back to lexical retrieval when the embeddings provider is down', async () => {
    const failing = await startFakeEmbeddingsServer({ failWith: 500 });
    try {
      const errors: unknown[] = [];
      const retriever = createKnowledgeRetriever({
        knowledge: store.knowledge,
        embedder: createOpenAiEmbedder({ baseUrl: failing.openAiUrl, model: 'fake' }),
        onEmbeddingError: (e) => errors.push(e),
      });
      const result = await retriever.retrieve({ tenantId, url, query: 'surname', limit: 3 });
      expect(result.mode).toBe('lexical');
      expect(result.chunks[0]?.chunk.headingPath).toEqual(['Patients API']);
      expect(errors).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });

  it('reads only the tenant’s own knowledge and honours allowed_domains', async () => {
    const other = (await store.tenants.create({ name: 'other' })).id;
    const retriever = createKnowledgeRetriever({ knowledge: store.knowledge, embedder });
    const foreign = await retriever.retrieve({ tenantId: other, url, query: 'surname', limit: 3 });
    expect(foreign).toMatchObject({ hasOrgKnowledge: false, chunks: [] });

    await store.knowledge.updateSettings(tenantId, { allowedDomains: ['intranet.example.org'] });
    const refused = await retriever.retrieve({ tenantId, url, query: 'surname', limit: 3 });
    expect(refused).toMatchObject({ domains: [''], hasOrgKnowledge: false, chunks: [] });

    await store.knowledge.updateSettings(tenantId, { allowedDomains: ['example.com'] });
    const allowed = await retriever.retrieve({ tenantId, url, query: 'surname', limit: 3 });
    expect(allowed.chunks[0]?.chunk.headingPath).toEqual(['Patients API']);
  });
});
