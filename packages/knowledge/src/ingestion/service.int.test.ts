// The ingestion pipeline over a real in-memory libSQL store, with embeddings from the loopback
// embeddings server through the real OpenAI SDK.
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiEmbedder } from '@tandem/llm';
import { UnsupportedFormatError } from '../extractors/types';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '@tandem/llm/testing';
import { KnowledgeIngestion, QuotaExceededError } from './service';
import { ingestPageContent } from './web';

const QUOTAS = { documents: 10_000, bytes: 500 * 1024 * 1024 };
const encode = (text: string) => new TextEncoder().encode(text);

const GUIDE = `# Webhooks

Tandem signs every webhook.

## Signatures

Each delivery carries the X-Tandem-Signature header, an HMAC-SHA256 of the body.

## Retries

Failed deliveries are retried 5 times over 24 hours.
`;

let server: FakeEmbeddingsServer;
let store: Store;
let tenantId: string;

beforeAll(async () => {
  server = await startFakeEmbeddingsServer({ dimensions: 16 });
});
afterAll(() => server.close());
beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  tenantId = (await store.tenants.create({ name: 'acme' })).id;
});
afterEach(() => store.close());

const lexicalOnly = () =>
  new KnowledgeIngestion({ knowledge: store.knowledge, embedder: null, quotas: QUOTAS });

describe('KnowledgeIngestion.ingestFile', () => {
  it('stores a Markdown file as chunks with heading paths', async () => {
    const stored = await lexicalOnly().ingestFile({
      tenantId,
      bytes: encode(GUIDE),
      fileName: 'webhooks.md',
      domain: 'docs.example.com',
    });
    expect(stored).toMatchObject({ unchanged: false, embedded: false, chunksSuperseded: 0 });
    expect(stored.document).toMatchObject({
      status: 'ready',
      title: 'Webhooks',
      sourceUrl: 'upload://webhooks.md',
      domain: 'docs.example.com',
    });
    const chunks = await store.knowledge.listChunks(tenantId, { documentId: stored.document.id });
    expect(chunks.map((c) => c.headingPath)).toEqual([
      ['Webhooks'],
      ['Webhooks', 'Signatures'],
      ['Webhooks', 'Retries'],
    ]);
    expect(chunks.every((c) => c.embedding === null)).toBe(true);
  });

  it('changes nothing for the same content, and supersedes the old chunks when it changed', async () => {
    const ingestion = lexicalOnly();
    const input = { tenantId, fileName: 'webhooks.md', domain: '' };
    const first = await ingestion.ingestFile({ ...input, bytes: encode(GUIDE) });
    const again = await ingestion.ingestFile({ ...input, bytes: encode(GUIDE) });
    expect(again).toMatchObject({ unchanged: true, chunksAdded: 0 });
    expect(again.document.id).toBe(first.document.id);

    const changed = await ingestion.ingestFile({
      ...input,
      bytes: encode(GUIDE.replace('5 times', '8 times')),
    });
    expect(changed).toMatchObject({ unchanged: false, chunksAdded: 3, chunksSuperseded: 3 });
    expect(changed.document.id).toBe(first.document.id);
    const current = await store.knowledge.listChunks(tenantId, { documentId: first.document.id });
    expect(current).toHaveLength(3);
    expect(current.map((c) => c.content).join('\n')).toContain('8 times');
    const hits = await store.knowledge.searchLexical(tenantId, {
      domains: [''],
      query: 'retried times',
      limit: 5,
    });
    expect(hits.map((h) => h.chunk.content).join('\n')).not.toContain('5 times');
    expect((await store.knowledge.listDocuments(tenantId)).length).toBe(1);
  });

  it('embeds chunks with their heading path when an embedder is configured', async () => {
    const ingestion = new KnowledgeIngestion({
      knowledge: store.knowledge,
      embedder: createOpenAiEmbedder({ baseUrl: server.openAiUrl, model: 'fake' }),
      quotas: QUOTAS,
    });
    const stored = await ingestion.ingestFile({
      tenantId,
      bytes: encode(GUIDE),
      fileName: 'webhooks.md',
      domain: '',
    });
    expect(stored.embedded).toBe(true);
    const chunks = await store.knowledge.listChunks(tenantId, { documentId: stored.document.id });
    expect(chunks.every((c) => c.embedding?.length === 16)).toBe(true);
    expect(server.requests.at(-1)?.texts[1]).toMatch(/^Webhooks > Signatures\n/);
  });

  it('keeps the chunks lexical-only, with a warning, when the embeddings provider fails', async () => {
    const failing = await startFakeEmbeddingsServer({ failWith: 503 });
    try {
      const errors: unknown[] = [];
      const ingestion = new KnowledgeIngestion({
        knowledge: store.knowledge,
        embedder: createOpenAiEmbedder({ baseUrl: failing.openAiUrl, model: 'fake' }),
        quotas: QUOTAS,
        onEmbeddingError: (e) => errors.push(e),
      });
      const stored = await ingestion.ingestFile({
        tenantId,
        bytes: encode(GUIDE),
        fileName: 'w.md',
        domain: '',
      });
      expect(stored).toMatchObject({ embedded: false, chunksAdded: 3 });
      expect(String(stored.document.metadata.warnings)).toMatch(/without embeddings/);
      expect(errors).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });

  it('embeds a long text a group at a time; a failure part way leaves the rest lexical, said so', async () => {
    // 400 sections: more chunks than one group (192), so the provider is called group by group.
    const long = Array.from(
      { length: 400 },
      (_, n) => `## Section ${n}\n\nClause ${n} of the agreement covers item ${n * 7} in detail.`,
    ).join('\n\n');
    // OpenAI-compatible batches are 64 texts: three calls make the first group, then it fails.
    const failing = await startFakeEmbeddingsServer({ failWith: 400, failAfter: 3, dimensions: 8 });
    try {
      const ingestion = new KnowledgeIngestion({
        knowledge: store.knowledge,
        embedder: createOpenAiEmbedder({ baseUrl: failing.openAiUrl, model: 'fake' }),
        quotas: QUOTAS,
      });
      const stored = await ingestion.ingestFile({
        tenantId,
        bytes: encode(long),
        fileName: 'agreement.md',
        domain: '',
      });
      const chunks = await store.knowledge.listChunks(tenantId, {
        documentId: stored.document.id,
      });
      expect(chunks.length).toBe(stored.chunksAdded);
      expect(chunks.length).toBeGreaterThan(192);
      expect(failing.requests.map((r) => r.texts.length)).toEqual([64, 64, 64]);
      const withVectors = chunks.filter((c) => c.embedding !== null);
      expect(withVectors.map((c) => c.ordinal)).toEqual([...Array(192).keys()]);
      expect(stored.embedded).toBe(false);
      expect(String(stored.document.metadata.warnings)).toMatch(
        new RegExp(`without embeddings.*chunks 193–${chunks.length} of ${chunks.length}`),
      );
    } finally {
      await failing.close();
    }
  });

  it('refuses a new document over the quota but lets a source be replaced', async () => {
    const ingestion = new KnowledgeIngestion({
      knowledge: store.knowledge,
      embedder: null,
      quotas: { documents: 1, bytes: QUOTAS.bytes },
    });
    const input = { tenantId, domain: '', bytes: encode(GUIDE) };
    await ingestion.ingestFile({ ...input, fileName: 'a.md' });
    await expect(ingestion.ingestFile({ ...input, fileName: 'b.md' })).rejects.toThrow(
      QuotaExceededError,
    );
    await expect(
      ingestion.ingestFile({ ...input, fileName: 'a.md', bytes: encode(`${GUIDE}\nMore.`) }),
    ).resolves.toMatchObject({ unchanged: false });
  });

  it('names a format it cannot read', async () => {
    const error = await lexicalOnly()
      .ingestFile({
        tenantId,
        bytes: new Uint8Array([0, 1, 2, 3, 250, 251, 252, 0, 9]),
        fileName: 'blob.bin',
        domain: '',
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedFormatError);
  });
});

describe('two-phase page content', () => {
  const page = (status: string, hidden: string) => `<html><head><title>Claim 42</title></head>
    <body><main><h1>Claim 42</h1>
      <h2>Status</h2><p>Status: ${status}. The claim was reviewed by the adjuster on Monday, and the customer was told by email.</p>
      <h2>Notes</h2><p>Customer called twice about the windshield replacement estimate and asked for a callback.</p>
      <div style="display:none"><h2>History</h2><p>${hidden}</p></div>
    </main></body></html>`;

  it('keeps hidden content in phase 1, then adds only new content and supersedes what changed', async () => {
    const ingestion = lexicalOnly();
    const deps = { knowledge: store.knowledge };
    const url = 'https://claims.example.com/claims/42';
    const initial = await ingestPageContent(ingestion, deps, {
      tenantId,
      url,
      html: page('Pending', 'Opened on 3 March by the web form.'),
      phase: 'initial',
    });
    expect(initial.added).toBeGreaterThan(0);
    const phase1 = await store.knowledge.listChunks(tenantId, { documentId: initial.documentId });
    expect(phase1.map((c) => c.content).join('\n')).toContain('Opened on 3 March');
    expect(phase1.every((c) => c.phase === 'initial')).toBe(true);

    const after = await ingestPageContent(ingestion, deps, {
      tenantId,
      url,
      html: page('Approved', 'Opened on 3 March by the web form.'),
      phase: 'post-interaction',
      triggerAction: 'click(68)',
    });
    expect(after.documentId).toBe(initial.documentId);
    expect(after).toMatchObject({ added: 1, superseded: 1 });
    expect(after.duplicates).toBeGreaterThan(0);
    const current = await store.knowledge.listChunks(tenantId, { documentId: after.documentId });
    const status = current.filter((c) => c.headingPath.includes('Status'));
    expect(status).toHaveLength(1);
    expect(status[0]).toMatchObject({ phase: 'post-interaction', triggerAction: 'click(68)' });
    expect(status[0]?.content).toContain('Approved');
  });
});
