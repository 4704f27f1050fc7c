// Knowledge retrieval: lexical (FTS5 / $text) and vector (libSQL vectors / Atlas $vectorSearch)
// search, the cheap counters RAG and quotas read, and per-tenant knowledge settings.
import { describe, expect, it } from 'vitest';
import type { KnowledgeChunk, NewKnowledgeChunk, ScoredKnowledgeChunk, Store } from '../../port';
import { expectIso, newTenant, uniq, useStore, type MakeStore } from './harness';

const ids = (results: ScoredKnowledgeChunk[]): string[] => results.map((r) => r.chunk.id);

async function addDoc(
  store: Store,
  tenantId: string,
  domain: string,
  chunks: NewKnowledgeChunk[],
  metadata?: Record<string, unknown>,
): Promise<KnowledgeChunk[]> {
  const doc = await store.knowledge.createDocument(tenantId, {
    domain,
    title: uniq('doc'),
    mimeType: 'text/markdown',
    ...(metadata === undefined ? {} : { metadata }),
  });
  return store.knowledge.addChunks(tenantId, doc.id, chunks);
}

function chunkAt(chunks: KnowledgeChunk[], index: number): KnowledgeChunk {
  const chunk = chunks[index];
  if (chunk === undefined) throw new Error(`no chunk ${index}`);
  return chunk;
}

function expectBestFirst(results: ScoredKnowledgeChunk[]): void {
  for (const [i, result] of results.entries()) {
    expect(Number.isFinite(result.score)).toBe(true);
    const previous = results[i - 1];
    if (previous !== undefined) expect(previous.score).toBeGreaterThanOrEqual(result.score);
  }
}

/** Characters and words FTS5 or $text would read as syntax; each must stay a plain word. */
const HOSTILE_QUERIES = [
  '"refund',
  'refund"',
  'refund*',
  '*',
  'NEAR(refund policy)',
  'refund NEAR policy',
  '-refund',
  'content:refund',
  'heading_path:refund',
  'refund AND OR NOT policy',
  '(policy',
  '^refund',
  "refund + policy {x} [y] ~ \\ / ' ;",
  '\u0000refund',
];

export function knowledgeSearchContract(makeStore: MakeStore): void {
  describe('knowledge search', () => {
    const store = useStore(makeStore);

    it('ranks chunks with the query words first and searches heading paths', async () => {
      const tenantId = await newTenant(store());
      const chunks = await addDoc(store(), tenantId, 'app.test', [
        {
          ordinal: 0,
          content: 'To request a refund, read the refund policy: a refund takes five days.',
          headingPath: ['Billing', 'Refunds'],
        },
        { ordinal: 1, content: 'Our privacy policy explains how data is used.' },
        { ordinal: 2, content: 'Keyboard shortcuts speed up the editor.' },
      ]);
      const [refund, privacy, shortcuts] = [0, 1, 2].map((i) => chunkAt(chunks, i));
      const [otherDomain] = await addDoc(store(), tenantId, 'other.test', [
        { ordinal: 0, content: 'refund policy refund policy refund policy' },
      ]);
      const [tenantWide] = await addDoc(store(), tenantId, '', [
        { ordinal: 0, content: 'Every refund is logged.' },
      ]);

      const results = await store().knowledge.searchLexical(tenantId, {
        domains: ['app.test'],
        query: 'refund policy',
        limit: 10,
      });
      expect(ids(results)).toEqual([refund?.id, privacy?.id]);
      expectBestFirst(results);
      expect(results[0]?.chunk).toEqual(refund);
      expect(ids(results)).not.toContain(shortcuts?.id);
      expect(ids(results)).not.toContain(otherDomain?.id);

      const withTenantWide = await store().knowledge.searchLexical(tenantId, {
        domains: ['app.test', ''],
        query: 'refund',
        limit: 10,
      });
      expect(ids(withTenantWide).sort()).toEqual([refund?.id, tenantWide?.id].sort());
      expect(
        ids(
          await store().knowledge.searchLexical(tenantId, {
            domains: ['app.test'],
            query: 'refund policy',
            limit: 1,
          }),
        ),
      ).toEqual([refund?.id]);
      // Heading words are searched with the content; word forms are stemmed alike.
      for (const query of ['billing', 'Refunds']) {
        const found = await store().knowledge.searchLexical(tenantId, {
          domains: ['app.test'],
          query,
          limit: 10,
        });
        expect(ids(found)[0], query).toBe(refund?.id);
      }
      expect(
        await store().knowledge.searchLexical(tenantId, {
          domains: [],
          query: 'refund',
          limit: 10,
        }),
      ).toEqual([]);
      expect(
        await store().knowledge.searchLexical(tenantId, {
          domains: ['app.test'],
          query: 'zzzunknownword',
          limit: 10,
        }),
      ).toEqual([]);
    });

    it('treats operator characters as plain text and ignores queries without words', async () => {
      const tenantId = await newTenant(store());
      const [refund] = await addDoc(store(), tenantId, 'app.test', [
        { ordinal: 0, content: 'The refund policy covers every plan.' },
        { ordinal: 1, content: 'Unrelated text about colours.' },
      ]);
      for (const query of HOSTILE_QUERIES) {
        const results = await store().knowledge.searchLexical(tenantId, {
          domains: ['app.test'],
          query,
          limit: 5,
        });
        if (/refund|policy/.test(query)) expect(ids(results)[0], query).toBe(refund?.id);
      }
      for (const query of ['', '   ', '"*:-^()', 'NEAR()']) {
        const results = await store().knowledge.searchLexical(tenantId, {
          domains: ['app.test'],
          query,
          limit: 5,
        });
        if (query !== 'NEAR()') expect(results, query).toEqual([]);
      }
    });

    it('never returns superseded, other-domain or other-tenant chunks lexically', async () => {
      const tenantId = await newTenant(store());
      const otherTenant = await newTenant(store());
      const [old] = await addDoc(store(), tenantId, 'app.test', [
        { ordinal: 0, content: 'Shipping takes three days.' },
      ]);
      const [replacement] = await addDoc(store(), tenantId, 'app.test', [
        { ordinal: 0, content: 'Shipping takes two days now.' },
      ]);
      await addDoc(store(), tenantId, 'other.test', [{ ordinal: 0, content: 'Shipping abroad.' }]);
      await addDoc(store(), otherTenant, 'app.test', [
        { ordinal: 0, content: 'Shipping shipping shipping.' },
      ]);
      await store().knowledge.markSuperseded(tenantId, [old?.id ?? ''], replacement?.id ?? '');

      const results = await store().knowledge.searchLexical(tenantId, {
        domains: ['app.test'],
        query: 'shipping days',
        limit: 10,
      });
      expect(ids(results)).toEqual([replacement?.id]);
    });

    it('ranks vectors by cosine, per dimension, without superseded or other-domain chunks', async () => {
      const tenantId = await newTenant(store());
      const chunks = await addDoc(store(), tenantId, 'vec.test', [
        { ordinal: 0, content: 'east', embedding: [1, 0, 0, 0] },
        { ordinal: 1, content: 'east-north-east', embedding: [0.9, 0.1, 0, 0] },
        { ordinal: 2, content: 'north', embedding: [0, 1, 0, 0] },
        { ordinal: 3, content: 'west', embedding: [-1, 0, 0, 0] },
        { ordinal: 4, content: 'three dims', embedding: [1, 0, 0] },
        { ordinal: 5, content: 'no vector' },
        { ordinal: 6, content: 'exact values', embedding: [0.1, 0.2, 0.3, 0.7] },
      ]);
      const [east, ene, north, west, three, , exact] = [0, 1, 2, 3, 4, 5, 6].map((i) =>
        chunkAt(chunks, i),
      );
      const [elsewhere] = await addDoc(store(), tenantId, 'other.test', [
        { ordinal: 0, content: 'east elsewhere', embedding: [1, 0, 0, 0] },
      ]);

      const top = await store().knowledge.searchVector(tenantId, {
        domains: ['vec.test'],
        embedding: [1, 0, 0, 0],
        limit: 3,
      });
      expect(ids(top)).toEqual([east?.id, ene?.id, exact?.id]);
      expectBestFirst(top);
      expect(top[0]?.score).toBeCloseTo(1, 4);
      expect(top[1]?.score).toBeCloseTo(0.9 / Math.sqrt(0.82), 4);
      // The stored chunk, less its vector: search results never carry one.
      expect(top[0]?.chunk).toEqual({ ...east, embedding: null });

      const all = await store().knowledge.searchVector(tenantId, {
        domains: ['vec.test'],
        embedding: [1, 0, 0, 0],
        limit: 50,
      });
      expect(ids(all)).toEqual([east?.id, ene?.id, exact?.id, north?.id, west?.id]);
      expect(all[3]?.score).toBeCloseTo(0, 4);
      expect(all[4]?.score).toBeCloseTo(-1, 4);
      expect(ids(all)).not.toContain(elsewhere?.id);

      // Only embeddings of the query's length are candidates.
      const byThree = await store().knowledge.searchVector(tenantId, {
        domains: ['vec.test', 'other.test'],
        embedding: [2, 0, 0],
        limit: 10,
      });
      expect(ids(byThree)).toEqual([three?.id]);
      expect(byThree[0]?.score).toBeCloseTo(1, 4);
      for (const embedding of [[1, 0, 0, 0, 0], [], [0, 0, 0, 0]]) {
        expect(
          await store().knowledge.searchVector(tenantId, {
            domains: ['vec.test'],
            embedding,
            limit: 10,
          }),
        ).toEqual([]);
      }
      expect(
        await store().knowledge.searchVector(tenantId, {
          domains: [],
          embedding: [1, 0, 0, 0],
          limit: 10,
        }),
      ).toEqual([]);

      await store().knowledge.markSuperseded(tenantId, [east?.id ?? ''], ene?.id ?? '');
      const current = await store().knowledge.searchVector(tenantId, {
        domains: ['vec.test', 'other.test'],
        embedding: [1, 0, 0, 0],
        limit: 2,
      });
      expect(ids(current)).toEqual([elsewhere?.id, ene?.id]);

      // Chunks still hand back the exact embedding given, not its float32 rounding.
      const listed = await store().knowledge.listChunks(tenantId, { domain: 'vec.test' });
      expect(listed.find((c) => c.id === exact?.id)?.embedding).toEqual([0.1, 0.2, 0.3, 0.7]);
    });

    it('finds a tenant’s nearest vectors even when other tenants crowd the index', async () => {
      const tenantId = await newTenant(store());
      const crowd = await newTenant(store());
      await addDoc(
        store(),
        crowd,
        'crowd.test',
        Array.from({ length: 260 }, (_, i) => ({
          ordinal: i,
          content: `crowd ${i}`,
          embedding: [1, 0.0005 * i, 0, 0],
        })),
      );
      // The same tenant's other domain crowds too.
      await addDoc(
        store(),
        tenantId,
        'elsewhere.test',
        Array.from({ length: 40 }, (_, i) => ({
          ordinal: i,
          content: `near ${i}`,
          embedding: [1, 0.0003 * i, 0, 0],
        })),
      );
      const mine = await addDoc(store(), tenantId, 'crowd.test', [
        { ordinal: 0, content: 'diagonal', embedding: [0.5, 0.5, 0, 0] },
        { ordinal: 1, content: 'up', embedding: [0, 0, 1, 0] },
        { ordinal: 2, content: 'mostly east', embedding: [0.8, 0.2, 0.1, 0] },
      ]);
      const results = await store().knowledge.searchVector(tenantId, {
        domains: ['crowd.test'],
        embedding: [1, 0, 0, 0],
        limit: 2,
      });
      expect(ids(results)).toEqual([chunkAt(mine, 2).id, chunkAt(mine, 0).id]);
      expect(results[1]?.score).toBeCloseTo(Math.SQRT1_2, 4);
    });

    it('deleting a document removes its chunks from both searches', async () => {
      const tenantId = await newTenant(store());
      const doc = await store().knowledge.createDocument(tenantId, {
        domain: 'zoo.test',
        title: 'Zoo',
        mimeType: 'text/plain',
      });
      await store().knowledge.addChunks(tenantId, doc.id, [
        { ordinal: 0, content: 'The zebra crossing is striped.', embedding: [0, 0, 1, 0] },
        { ordinal: 1, content: 'Zebra foals.', embedding: [0, 0, 0.9, 0.1] },
      ]);
      const lexical = { domains: ['zoo.test'], query: 'zebra', limit: 10 };
      const vector = { domains: ['zoo.test'], embedding: [0, 0, 1, 0], limit: 10 };
      expect(await store().knowledge.searchLexical(tenantId, lexical)).toHaveLength(2);
      expect(await store().knowledge.searchVector(tenantId, vector)).toHaveLength(2);

      expect(await store().knowledge.deleteDocument(tenantId, doc.id)).toBe(true);
      expect(await store().knowledge.searchLexical(tenantId, lexical)).toEqual([]);
      expect(await store().knowledge.searchVector(tenantId, vector)).toEqual([]);
      expect(await store().knowledge.hasChunks(tenantId, ['zoo.test'])).toBe(false);

      // The indexes stay usable: new chunks are found, the deleted ones still are not.
      const [fresh] = await addDoc(store(), tenantId, 'zoo.test', [
        { ordinal: 0, content: 'A zebra again.', embedding: [0, 0, 1, 0] },
      ]);
      expect(ids(await store().knowledge.searchLexical(tenantId, lexical))).toEqual([fresh?.id]);
      expect(ids(await store().knowledge.searchVector(tenantId, vector))).toEqual([fresh?.id]);
    });

    it('refuses embeddings that are not finite numbers', async () => {
      const tenantId = await newTenant(store());
      const doc = await store().knowledge.createDocument(tenantId, {
        domain: 'bad.test',
        title: 'Bad',
        mimeType: 'text/plain',
      });
      await expect(
        store().knowledge.addChunks(tenantId, doc.id, [
          { ordinal: 0, content: 'ok', embedding: [1, 0] },
          { ordinal: 1, content: 'nan', embedding: [Number.NaN, 1] },
        ]),
      ).rejects.toThrow();
      // Nothing of the refused batch was written.
      expect(await store().knowledge.listChunks(tenantId, { documentId: doc.id })).toEqual([]);
      await expect(
        store().knowledge.searchVector(tenantId, {
          domains: ['bad.test'],
          embedding: [Number.POSITIVE_INFINITY, 0],
          limit: 1,
        }),
      ).rejects.toThrow();
    });

    it('answers hasChunks, countChunks and usage from current chunks and sizes', async () => {
      const tenantId = await newTenant(store());
      expect(await store().knowledge.hasChunks(tenantId, ['app.test'])).toBe(false);
      expect(await store().knowledge.countChunks(tenantId)).toEqual({});
      expect(await store().knowledge.usage(tenantId)).toEqual({
        documents: 0,
        chunks: 0,
        bytes: 0,
      });

      const first = await store().knowledge.createDocument(tenantId, {
        domain: 'app.test',
        title: 'First',
        mimeType: 'text/plain',
        metadata: { sizeBytes: 1000 },
      });
      const [a, b] = await store().knowledge.addChunks(tenantId, first.id, [
        { ordinal: 0, content: 'a' },
        { ordinal: 1, content: 'b' },
        { ordinal: 2, content: 'c' },
      ]);
      await store().knowledge.markSuperseded(tenantId, [a?.id ?? ''], b?.id ?? '');
      const second = await store().knowledge.createDocument(tenantId, {
        domain: 'other.test',
        title: 'Second',
        mimeType: 'text/plain',
        metadata: { sizeBytes: 234, pages: 2 },
      });
      await store().knowledge.addChunks(tenantId, second.id, [{ ordinal: 0, content: 'd' }]);
      await store().knowledge.createDocument(tenantId, {
        domain: 'app.test',
        title: 'Empty',
        mimeType: 'text/plain',
      });
      await store().knowledge.createDocument(tenantId, {
        domain: 'app.test',
        title: 'Odd size',
        mimeType: 'text/plain',
        metadata: { sizeBytes: 'large' },
      });
      const gone = await store().knowledge.createDocument(tenantId, {
        domain: 'gone.test',
        title: 'All superseded',
        mimeType: 'text/plain',
      });
      const [g] = await store().knowledge.addChunks(tenantId, gone.id, [
        { ordinal: 0, content: 'g' },
      ]);
      await store().knowledge.markSuperseded(tenantId, [g?.id ?? ''], b?.id ?? '');

      expect(await store().knowledge.hasChunks(tenantId, ['app.test'])).toBe(true);
      expect(await store().knowledge.hasChunks(tenantId, ['none.test', 'other.test'])).toBe(true);
      expect(await store().knowledge.hasChunks(tenantId, ['none.test'])).toBe(false);
      expect(await store().knowledge.hasChunks(tenantId, ['gone.test'])).toBe(false);
      expect(await store().knowledge.hasChunks(tenantId, [])).toBe(false);
      expect(await store().knowledge.countChunks(tenantId)).toEqual({
        [first.id]: 2,
        [second.id]: 1,
      });
      // Superseded chunks count until deleted; only numeric sizes add up.
      expect(await store().knowledge.usage(tenantId)).toEqual({
        documents: 5,
        chunks: 5,
        bytes: 1234,
      });
    });

    it('finds documents by source URL', async () => {
      const tenantId = await newTenant(store());
      const page = await store().knowledge.createDocument(tenantId, {
        domain: 'docs.test',
        title: 'Page',
        mimeType: 'text/html',
        sourceUrl: 'https://docs.test/a',
      });
      await store().knowledge.createDocument(tenantId, {
        domain: 'docs.test',
        title: 'Other page',
        mimeType: 'text/html',
        sourceUrl: 'https://docs.test/b',
      });
      expect(
        await store().knowledge.listDocuments(tenantId, { sourceUrl: 'https://docs.test/a' }),
      ).toEqual([page]);
      expect(
        await store().knowledge.listDocuments(tenantId, {
          sourceUrl: 'https://docs.test/a',
          domain: 'other.test',
        }),
      ).toEqual([]);
      expect(
        await store().knowledge.listDocuments(tenantId, { sourceUrl: 'https://docs.test/c' }),
      ).toEqual([]);
    });

    it('defaults and updates knowledge settings', async () => {
      const tenantId = await newTenant(store());
      expect(await store().knowledge.getSettings(tenantId)).toEqual({
        tenantId,
        allowedDomains: [],
        updatedAt: null,
      });
      const saved = await store().knowledge.updateSettings(tenantId, {
        allowedDomains: ['docs.test', 'app.test'],
      });
      expect(saved).toMatchObject({ tenantId, allowedDomains: ['docs.test', 'app.test'] });
      expectIso(saved.updatedAt);
      expect(await store().knowledge.getSettings(tenantId)).toEqual(saved);

      const cleared = await store().knowledge.updateSettings(tenantId, { allowedDomains: [] });
      expect(cleared.allowedDomains).toEqual([]);
      expect(cleared.updatedAt !== null && cleared.updatedAt >= (saved.updatedAt ?? '')).toBe(true);
      expect(await store().knowledge.getSettings(tenantId)).toEqual(cleared);
    });
  });
}
