// RAG over a real embedded (in-memory libSQL) store.
import { createLibsqlStore, type Store } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allowedDomains, createRagService } from './rag-service';

describe('getRAGChunks', () => {
  let store: Store;
  let tenantA: string;
  let tenantB: string;

  const addDoc = async (
    tenantId: string,
    domain: string,
    chunks: { content: string; headingPath?: string[]; phase?: 'initial' | 'post-interaction' }[],
  ) => {
    const doc = await store.knowledge.createDocument(tenantId, {
      domain,
      title: `${domain || 'tenant-wide'} doc`,
      mimeType: 'text/markdown',
      status: 'ready',
    });
    return store.knowledge.addChunks(
      tenantId,
      doc.id,
      chunks.map((chunk, ordinal) => ({ ordinal, ...chunk })),
    );
  };

  beforeEach(async () => {
    store = await createLibsqlStore({ url: ':memory:' });
    tenantA = (await store.tenants.create({ name: 'A' })).id;
    tenantB = (await store.tenants.create({ name: 'B' })).id;
  });
  afterEach(async () => {
    await store.close();
  });

  it('returns chunks of the page domain, its parent domains and tenant-wide, never other sites', async () => {
    await addDoc(tenantA, 'app.example.com', [
      { content: 'To add a patient, click New patient.', headingPath: ['Patients'] },
    ]);
    await addDoc(tenantA, 'example.com', [{ content: 'Patient records are kept for ten years.' }]);
    await addDoc(tenantA, '', [{ content: 'Our patient privacy policy applies everywhere.' }]);
    await addDoc(tenantA, 'other.com', [{ content: 'Patient portal of another site.' }]);
    await addDoc(tenantA, 'billing.example.com', [{ content: 'Patient invoices live here.' }]);

    const rag = createRagService(store);
    const { chunks, hasOrgKnowledge } = await rag.getRAGChunks({
      url: 'https://app.example.com/patients',
      query: 'add a new patient',
      tenantId: tenantA,
    });
    expect(hasOrgKnowledge).toBe(true);
    expect(chunks.map((c) => c.domain).sort()).toEqual(['', 'app.example.com', 'example.com']);
    // "add" and "patient" both match the procedure chunk; the others match "patient" only.
    expect(chunks[0]).toMatchObject({
      domain: 'app.example.com',
      headingPath: ['Patients'],
      content: 'To add a patient, click New patient.',
    });
    expect(chunks[0]?.score).toBeGreaterThan(chunks[1]?.score ?? Infinity);
    expect(chunks.every((c) => c.id !== '' && c.documentId !== '')).toBe(true);
  });

  it('matches a parent domain for deep subdomains but not a sibling or a child for its parent', async () => {
    await addDoc(tenantA, 'example.com', [{ content: 'login help' }]);
    await addDoc(tenantA, 'app.example.com', [{ content: 'login help for app' }]);
    const rag = createRagService(store);
    const deep = await rag.getRAGChunks({
      url: 'https://eu.app.example.com/x',
      query: 'login',
      tenantId: tenantA,
    });
    expect(deep.chunks.map((c) => c.domain).sort()).toEqual(['app.example.com', 'example.com']);
    const parent = await rag.getRAGChunks({
      url: 'https://example.com/',
      query: 'login',
      tenantId: tenantA,
    });
    expect(parent.chunks.map((c) => c.domain)).toEqual(['example.com']);
    const lookalike = await rag.getRAGChunks({
      url: 'https://notexample.com/',
      query: 'login',
      tenantId: tenantA,
    });
    expect(lookalike).toEqual({ chunks: [], hasOrgKnowledge: false });
  });

  it('isolates tenants, and reports hasOrgKnowledge false for a tenant with no knowledge', async () => {
    await addDoc(tenantA, 'example.com', [{ content: 'secret procedure for tenant A' }]);
    const rag = createRagService(store);
    const other = await rag.getRAGChunks({
      url: 'https://example.com/',
      query: 'secret procedure',
      tenantId: tenantB,
    });
    expect(other).toEqual({ chunks: [], hasOrgKnowledge: false });
  });

  it('reports org knowledge even when nothing matches the query', async () => {
    await addDoc(tenantA, 'example.com', [{ content: 'how to export invoices' }]);
    const rag = createRagService(store);
    const result = await rag.getRAGChunks({
      url: 'https://example.com/',
      query: 'schedule appointment',
      tenantId: tenantA,
    });
    expect(result).toEqual({ chunks: [], hasOrgKnowledge: true });
  });

  it('ranks by BM25, prefers post-interaction chunks (freshness bias), excludes superseded, honours limit', async () => {
    // The post-interaction chunk is the older one: the phase, not recency, must put it first.
    const [after] = await addDoc(tenantA, 'example.com', [
      { content: 'Save the form with the Save button.', phase: 'post-interaction' },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const [initial] = await addDoc(tenantA, 'example.com', [
      { content: 'Save the form with the Save button.', phase: 'initial' },
    ]);
    const [old] = await addDoc(tenantA, 'example.com', [
      { content: 'Save form save save (outdated).' },
    ]);
    await addDoc(tenantA, 'example.com', [
      { content: 'Unrelated text about colours.' },
      { content: 'The form has many fields.' },
    ]);
    expect(initial && after && old).toBeTruthy();
    await store.knowledge.markSuperseded(tenantA, [old?.id ?? ''], after?.id ?? '');

    const rag = createRagService(store);
    const { chunks } = await rag.getRAGChunks({
      url: 'https://example.com/',
      query: 'save form',
      tenantId: tenantA,
    });
    expect(chunks.map((c) => c.id)).toEqual([after?.id, initial?.id, expect.any(String)]);
    expect(chunks[0]?.score).toBeGreaterThan(chunks[1]?.score ?? Infinity);
    expect(chunks.map((c) => c.content)).not.toContain('Save form save save (outdated).');

    const limited = await rag.getRAGChunks({
      url: 'https://example.com/',
      query: 'save form',
      tenantId: tenantA,
      limit: 1,
    });
    expect(limited.chunks.map((c) => c.id)).toEqual([after?.id]);
  });

  it('gives tenant-wide knowledge only for unparseable URLs', async () => {
    await addDoc(tenantA, '', [{ content: 'general guidance on forms' }]);
    await addDoc(tenantA, 'example.com', [{ content: 'forms on example' }]);
    const rag = createRagService(store);
    const result = await rag.getRAGChunks({ url: 'not a url', query: 'forms', tenantId: tenantA });
    expect(result.chunks.map((c) => c.domain)).toEqual(['']);
  });
});

describe('allowedDomains', () => {
  it('lists tenant-wide, the host, parents down to two labels, and www aliases', () => {
    expect(allowedDomains('https://eu.app.example.com/x')).toEqual([
      '',
      'eu.app.example.com',
      'app.example.com',
      'example.com',
      'www.eu.app.example.com',
    ]);
    expect(allowedDomains('https://www.example.com/')).toEqual([
      '',
      'www.example.com',
      'example.com',
    ]);
    expect(allowedDomains('http://127.0.0.1:3000/')).toEqual(['', '127.0.0.1']);
    expect(allowedDomains('http://localhost:3000/')).toEqual(['', 'localhost']);
  });
});
