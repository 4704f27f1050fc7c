// Knowledge documents and chunks: defaults, ordering, supersession and cascade delete.
import { describe, expect, it } from 'vitest';
import { expectIso, newTenant, uniq, useStore, type MakeStore } from './harness';

export function knowledgeContract(makeStore: MakeStore): void {
  describe('knowledge', () => {
    const store = useStore(makeStore);

    it('creates documents with defaults, gets, lists and updates them', async () => {
      const tenantId = await newTenant(store());
      const doc = await store().knowledge.createDocument(tenantId, {
        domain: 'app.test',
        title: 'Help',
        mimeType: 'text/markdown',
      });
      expect(doc).toMatchObject({
        tenantId,
        domain: 'app.test',
        title: 'Help',
        mimeType: 'text/markdown',
        status: 'pending',
        sourceUrl: null,
        metadata: {},
      });
      expectIso(doc.createdAt);
      expect(await store().knowledge.getDocument(tenantId, doc.id)).toEqual(doc);
      expect(await store().knowledge.getDocument(tenantId, uniq('missing'))).toBeNull();

      const id = uniq('doc');
      const other = await store().knowledge.createDocument(tenantId, {
        id,
        domain: '',
        title: 'Tenant-wide',
        mimeType: 'text/html',
        sourceUrl: 'https://docs.test/a',
        status: 'ready',
        metadata: { pages: 3, tags: ['a', 'b'], nested: { ok: true } },
      });
      expect(other).toMatchObject({
        id,
        sourceUrl: 'https://docs.test/a',
        status: 'ready',
        metadata: { pages: 3, tags: ['a', 'b'], nested: { ok: true } },
      });

      const all = await store().knowledge.listDocuments(tenantId);
      expect(all.map((d) => d.id).sort()).toEqual([doc.id, other.id].sort());
      const scoped = await store().knowledge.listDocuments(tenantId, { domain: 'app.test' });
      expect(scoped.map((d) => d.id)).toEqual([doc.id]);

      const updated = await store().knowledge.updateDocument(tenantId, doc.id, {
        status: 'ready',
        metadata: { chunks: 2 },
      });
      expect(updated).toMatchObject({
        id: doc.id,
        status: 'ready',
        title: 'Help',
        metadata: { chunks: 2 },
      });
      expect(updated && updated.updatedAt >= doc.updatedAt).toBe(true);
      expect(await store().knowledge.getDocument(tenantId, doc.id)).toEqual(updated);
      expect(
        await store().knowledge.updateDocument(tenantId, uniq('missing'), { title: 'x' }),
      ).toBeNull();
    });

    it('adds chunks that inherit the domain and list in document/ordinal order', async () => {
      const tenantId = await newTenant(store());
      const doc = await store().knowledge.createDocument(tenantId, {
        domain: 'app.test',
        title: 'Guide',
        mimeType: 'text/markdown',
      });
      const chunks = await store().knowledge.addChunks(tenantId, doc.id, [
        { ordinal: 2, content: 'third' },
        {
          ordinal: 0,
          content: 'first',
          headingPath: ['Guide', 'Start'],
          tokenCount: 12,
          embedding: [0.5, -0.25, 0.125, 0],
          phase: 'initial',
          id: uniq('chunk'),
        },
        {
          ordinal: 1,
          content: 'second',
          phase: 'post-interaction',
          triggerAction: 'click(4)',
        },
      ]);
      expect(chunks).toHaveLength(3);
      for (const chunk of chunks) {
        expect(chunk).toMatchObject({
          tenantId,
          documentId: doc.id,
          domain: 'app.test',
          supersededBy: null,
        });
        expectIso(chunk.createdAt);
      }
      expect(chunks[0]).toMatchObject({
        headingPath: [],
        embedding: null,
        phase: null,
        triggerAction: null,
      });
      expect(chunks[1]).toMatchObject({
        headingPath: ['Guide', 'Start'],
        tokenCount: 12,
        embedding: [0.5, -0.25, 0.125, 0],
        phase: 'initial',
      });

      const listed = await store().knowledge.listChunks(tenantId, { documentId: doc.id });
      expect(listed.map((c) => c.content)).toEqual(['first', 'second', 'third']);
      expect(listed[0]).toEqual(chunks[1]);

      const second = await store().knowledge.createDocument(tenantId, {
        domain: 'app.test',
        title: 'FAQ',
        mimeType: 'text/markdown',
      });
      await store().knowledge.addChunks(tenantId, second.id, [{ ordinal: 0, content: 'faq' }]);
      const byDomain = await store().knowledge.listChunks(tenantId, { domain: 'app.test' });
      const expected = [doc.id, second.id].sort().flatMap((id) =>
        id === doc.id
          ? [
              [doc.id, 0],
              [doc.id, 1],
              [doc.id, 2],
            ]
          : [[second.id, 0]],
      );
      expect(byDomain.map((c) => [c.documentId, c.ordinal])).toEqual(expected);
      expect(await store().knowledge.listChunks(tenantId, { domain: 'none.test' })).toEqual([]);
      // A list of domains matches any of them, in the same order as one domain.
      const anyOf = await store().knowledge.listChunks(tenantId, {
        domain: ['none.test', 'app.test'],
      });
      expect(anyOf.map((c) => [c.documentId, c.ordinal])).toEqual(expected);
      expect(await store().knowledge.listChunks(tenantId, { domain: [] })).toEqual([]);
      expect(await store().knowledge.listChunks(tenantId)).toHaveLength(4);
    });

    it('refuses chunks for a document that does not exist', async () => {
      const tenantId = await newTenant(store());
      await expect(
        store().knowledge.addChunks(tenantId, uniq('missing'), [{ ordinal: 0, content: 'x' }]),
      ).rejects.toThrow();
    });

    it('hides superseded chunks unless asked', async () => {
      const tenantId = await newTenant(store());
      const doc = await store().knowledge.createDocument(tenantId, {
        domain: 'app.test',
        title: 'Guide',
        mimeType: 'text/markdown',
      });
      const [a, b, c] = await store().knowledge.addChunks(tenantId, doc.id, [
        { ordinal: 0, content: 'a' },
        { ordinal: 1, content: 'b' },
        { ordinal: 2, content: 'c' },
      ]);
      const [replacement] = await store().knowledge.addChunks(tenantId, doc.id, [
        { ordinal: 3, content: 'a2' },
      ]);
      expect(
        await store().knowledge.markSuperseded(
          tenantId,
          [a?.id ?? '', b?.id ?? '', uniq('missing')],
          replacement?.id ?? '',
        ),
      ).toBe(2);
      expect(await store().knowledge.markSuperseded(tenantId, [], 'x')).toBe(0);
      const current = await store().knowledge.listChunks(tenantId, { documentId: doc.id });
      expect(current.map((x) => x.id)).toEqual([c?.id, replacement?.id]);
      const everything = await store().knowledge.listChunks(tenantId, {
        documentId: doc.id,
        includeSuperseded: true,
      });
      expect(everything.map((x) => [x.id, x.supersededBy])).toEqual([
        [a?.id, replacement?.id],
        [b?.id, replacement?.id],
        [c?.id, null],
        [replacement?.id, null],
      ]);
    });

    it('deletes a document with its chunks only', async () => {
      const tenantId = await newTenant(store());
      const doomed = await store().knowledge.createDocument(tenantId, {
        domain: 'app.test',
        title: 'Old',
        mimeType: 'text/plain',
      });
      const kept = await store().knowledge.createDocument(tenantId, {
        domain: 'app.test',
        title: 'Keep',
        mimeType: 'text/plain',
      });
      await store().knowledge.addChunks(tenantId, doomed.id, [
        { ordinal: 0, content: 'x' },
        { ordinal: 1, content: 'y' },
      ]);
      const keptChunks = await store().knowledge.addChunks(tenantId, kept.id, [
        { ordinal: 0, content: 'z' },
      ]);
      expect(await store().knowledge.deleteDocument(tenantId, doomed.id)).toBe(true);
      expect(await store().knowledge.getDocument(tenantId, doomed.id)).toBeNull();
      expect(
        await store().knowledge.listChunks(tenantId, {
          documentId: doomed.id,
          includeSuperseded: true,
        }),
      ).toEqual([]);
      expect(await store().knowledge.listChunks(tenantId, { includeSuperseded: true })).toEqual(
        keptChunks,
      );
      expect(await store().knowledge.deleteDocument(tenantId, doomed.id)).toBe(false);
    });
  });
}
