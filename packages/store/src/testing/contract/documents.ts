// Documents, extractions written by path, their history, and stacks: both adapters
// must apply a path write the same way, atomically with its history entry, and never touch
// another user's records.
import { describe, expect, it } from 'vitest';
import type { DocumentExtraction, Store } from '../../port';
import { expectIso, newTenant, tick, uniq, useStore, type MakeStore } from './harness';

const write = (tool: string, input: unknown = {}) => ({ tool, input });

async function extractionWith(
  store: Store,
  tenantId: string,
  fields: Record<string, unknown>,
  confidences: Record<string, unknown>,
  userId = 'u1',
): Promise<DocumentExtraction> {
  const doc = await store.documents.create(tenantId, {
    userId,
    fileName: 'invoice.pdf',
    title: 'Invoice',
    mimeType: 'application/pdf',
    sizeBytes: 100,
    pages: [{ number: 1, text: 'Invoice INV-1' }],
  });
  const x = await store.documentExtractions.create(tenantId, { userId, documentId: doc.id });
  const written = await store.documentExtractions.replaceFields(tenantId, x.id, {
    userId,
    fields,
    confidences,
    write: write('extract_fields', { fields, confidences }),
  });
  if (!written) throw new Error('replaceFields returned null');
  return written;
}

const INVOICE = {
  vendor: { name: 'Acme', address: 'Main St 1' },
  items: [
    { name: 'Bolt', price: 2 },
    { name: 'Nut', price: 1 },
    { name: 'Gear', price: 9 },
  ],
  total: 1204.5,
  note: null,
};
const INVOICE_CONF = {
  vendor: { name: 0.9, address: 0.8 },
  items: [
    { name: 0.9, price: 0.9 },
    { name: 0.9, price: 0.7 },
    { name: 0.9, price: 0.6 },
  ],
  total: 0.95,
  note: 0.5,
};

export function documentsContract(makeStore: MakeStore): void {
  describe('documents', () => {
    const store = useStore(makeStore);

    it('keeps the text per page and lists summaries, scoped to the user', async () => {
      const tenantId = await newTenant(store());
      const doc = await store().documents.create(tenantId, {
        userId: 'u1',
        fileName: 'claim.pdf',
        title: 'Claim',
        mimeType: 'application/pdf',
        sizeBytes: 2048,
        pages: [
          { number: 1, text: 'Claim number: C-1' },
          { number: 2, text: 'Signed.' },
        ],
        warnings: ['Page(s) 2 had no text layer and were read by OCR.'],
      });
      expect(doc).toMatchObject({
        tenantId,
        userId: 'u1',
        status: 'ready',
        error: null,
        pageCount: 2,
        characters: 'Claim number: C-1'.length + 'Signed.'.length,
      });
      expectIso(doc.createdAt);
      expect(await store().documents.get(tenantId, doc.id)).toEqual(doc);
      expect(await store().documents.get(tenantId, doc.id, { userId: 'u1' })).toEqual(doc);
      expect(await store().documents.get(tenantId, doc.id, { userId: 'u2' })).toBeNull();
      expect(await store().documents.get(tenantId, uniq('missing'))).toBeNull();

      await tick();
      const other = await store().documents.create(tenantId, {
        userId: 'u2',
        fileName: 'b.txt',
        title: 'B',
        mimeType: 'text/plain',
        sizeBytes: 1,
        pages: [{ number: 1, text: 'b' }],
      });
      const { pages: _pages, ...summary } = doc;
      expect(await store().documents.list(tenantId, { userId: 'u1' })).toEqual([summary]);
      expect((await store().documents.list(tenantId)).map((d) => d.id)).toEqual([other.id, doc.id]);
    });
  });

  describe('documents read by a job', () => {
    const store = useStore(makeStore);
    const upload = (tenantId: string, userId = 'u1') =>
      store().documents.create(tenantId, {
        userId,
        fileName: 'scan.png',
        title: 'scan.png',
        mimeType: 'image/png',
        sizeBytes: 10,
        pages: [],
        status: 'processing',
      });

    it('is stored processing with no pages, and made ready once with its text', async () => {
      const tenantId = await newTenant(store());
      const doc = await upload(tenantId);
      expect(doc).toMatchObject({
        status: 'processing',
        error: null,
        failureCode: null,
        pages: [],
        pageCount: 0,
        characters: 0,
      });
      expect(await store().documents.get(tenantId, doc.id)).toEqual(doc);
      const ready = await store().documents.markReady(tenantId, doc.id, {
        title: 'Scan',
        mimeType: 'image/png',
        pages: [{ number: 1, text: 'Total 12' }],
        warnings: ['read by OCR'],
      });
      expect(ready).toEqual({
        ...doc,
        status: 'ready',
        title: 'Scan',
        pages: [{ number: 1, text: 'Total 12' }],
        pageCount: 1,
        characters: 8,
        warnings: ['read by OCR'],
      });
      expect(await store().documents.get(tenantId, doc.id)).toEqual(ready);
      const { pages: _pages, ...summary } = ready as NonNullable<typeof ready>;
      expect(await store().documents.list(tenantId)).toEqual([summary]);
      // A finished document is never overwritten: not by a second reader, not by a failure.
      expect(
        await store().documents.markReady(tenantId, doc.id, {
          title: 'Other',
          mimeType: 'image/png',
          pages: [{ number: 1, text: 'x' }],
          warnings: [],
        }),
      ).toBeNull();
      expect(
        await store().documents.markFailed(tenantId, doc.id, { error: 'late', failureCode: 'X' }),
      ).toBeNull();
      expect(await store().documents.reopen(tenantId, doc.id)).toBeNull();
      expect(await store().documents.get(tenantId, doc.id)).toEqual(ready);
    });

    it('fails with its reason, reopens for a retry, and stays in its tenant', async () => {
      const tenantId = await newTenant(store());
      const otherTenant = await newTenant(store());
      const doc = await upload(tenantId);
      expect(
        await store().documents.markFailed(otherTenant, doc.id, { error: 'x', failureCode: 'X' }),
      ).toBeNull();
      const failed = await store().documents.markFailed(tenantId, doc.id, {
        error: 'The store failed.',
        failureCode: 'SERVICE_UNAVAILABLE',
      });
      expect(failed).toMatchObject({
        status: 'failed',
        error: 'The store failed.',
        failureCode: 'SERVICE_UNAVAILABLE',
      });
      expect(
        await store().documents.markFailed(tenantId, doc.id, { error: 'again', failureCode: 'X' }),
      ).toBeNull();
      expect(await store().documents.reopen(otherTenant, doc.id)).toBeNull();
      const reopened = await store().documents.reopen(tenantId, doc.id);
      expect(reopened).toEqual({ ...doc, status: 'processing' });
      expect(await store().documents.reopen(tenantId, doc.id)).toBeNull();
    });
  });

  describe('document extractions', () => {
    const store = useStore(makeStore);

    it('creates in progress with no fields, and lists newest first with a cursor', async () => {
      const tenantId = await newTenant(store());
      const x = await extractionWith(store(), tenantId, { a: 1 }, { a: 1 });
      await tick();
      const fresh = await store().documentExtractions.create(tenantId, {
        userId: 'u1',
        documentId: x.documentId,
        schema: { type: 'object' },
        instructions: 'totals only',
      });
      expect(fresh).toEqual({
        id: fresh.id,
        tenantId,
        userId: 'u1',
        documentId: x.documentId,
        status: 'in_progress',
        documentType: null,
        fields: {},
        confidences: {},
        schema: { type: 'object' },
        instructions: 'totals only',
        costMicroUsd: 0,
        tokens: 0,
        error: null,
        createdAt: fresh.createdAt,
        updatedAt: fresh.createdAt,
      });
      expect(
        await store().documentExtractions.get(tenantId, fresh.id, { userId: 'u2' }),
      ).toBeNull();

      await tick();
      const third = await store().documentExtractions.create(tenantId, {
        userId: 'u2',
        documentId: 'other-doc',
      });
      const first = await store().documentExtractions.list(tenantId, { limit: 2 });
      expect(first.items.map((e) => e.id)).toEqual([third.id, fresh.id]);
      expect(first.nextCursor).not.toBeNull();
      const second = await store().documentExtractions.list(tenantId, {
        limit: 2,
        cursor: first.nextCursor,
      });
      expect(second.items.map((e) => e.id)).toEqual([x.id]);
      expect(second.nextCursor).toBeNull();
      expect(
        (await store().documentExtractions.list(tenantId, { userId: 'u2' })).items.map((e) => e.id),
      ).toEqual([third.id]);
      expect(
        (await store().documentExtractions.list(tenantId, { documentId: x.documentId })).items.map(
          (e) => e.id,
        ),
      ).toEqual([fresh.id, x.id]);
    });

    it('sets a value by path: a key, an array element, an append; confidences follow', async () => {
      const tenantId = await newTenant(store());
      const x = await extractionWith(store(), tenantId, INVOICE, INVOICE_CONF);
      const repo = store().documentExtractions;

      const named = await repo.setField(tenantId, x.id, {
        userId: 'u1',
        path: ['vendor', 'name'],
        value: 'Acme Supplies Ltd',
        confidence: 1,
        write: write('update_field', { path: 'vendor.name' }),
      });
      expect(named?.fields.vendor).toEqual({ name: 'Acme Supplies Ltd', address: 'Main St 1' });
      expect(named?.confidences.vendor).toEqual({ name: 1, address: 0.8 });
      expect(named?.fields.items).toEqual(INVOICE.items);
      expect(named && named.updatedAt >= x.updatedAt).toBe(true);

      const priced = await repo.setField(tenantId, x.id, {
        userId: 'u1',
        path: ['items', 1, 'price'],
        value: 1.25,
        confidence: 0.99,
        write: write('update_field', { path: 'items[1].price' }),
      });
      expect(priced?.fields.items).toEqual([
        { name: 'Bolt', price: 2 },
        { name: 'Nut', price: 1.25 },
        { name: 'Gear', price: 9 },
      ]);
      expect((priced?.confidences.items as unknown[])[1]).toEqual({ name: 0.9, price: 0.99 });

      const replaced = await repo.setField(tenantId, x.id, {
        userId: 'u1',
        path: ['items', 0],
        value: { name: 'Bolt M6', price: 2.5 },
        confidence: { name: 0.8, price: 0.8 },
        write: write('update_field', { path: 'items[0]' }),
      });
      expect((replaced?.fields.items as unknown[])[0]).toEqual({ name: 'Bolt M6', price: 2.5 });

      const appended = await repo.setField(tenantId, x.id, {
        userId: 'u1',
        path: ['items', 3],
        value: { name: 'Washer', price: 0.1 },
        confidence: { name: 0.7, price: 0.7 },
        write: write('update_field', { path: 'items[3]' }),
      });
      expect(appended?.fields.items).toHaveLength(4);
      expect((appended?.confidences.items as unknown[])[3]).toEqual({ name: 0.7, price: 0.7 });

      const added = await repo.setField(tenantId, x.id, {
        userId: 'u1',
        path: ['currency'],
        value: 'EUR',
        confidence: 0.9,
        write: write('update_field', { path: 'currency' }),
      });
      expect(added?.fields).toMatchObject({ currency: 'EUR', total: 1204.5, note: null });

      // Everything else is exactly as it was.
      expect(added?.fields.vendor).toEqual({ name: 'Acme Supplies Ltd', address: 'Main St 1' });
      expect(await repo.get(tenantId, x.id)).toEqual(added);
    });

    it('refuses a path without its parent, beyond an array end, or of another user', async () => {
      const tenantId = await newTenant(store());
      const x = await extractionWith(store(), tenantId, INVOICE, INVOICE_CONF);
      const repo = store().documentExtractions;
      const attempt = (path: (string | number)[], userId = 'u1') =>
        repo.setField(tenantId, x.id, {
          userId,
          path,
          value: 1,
          confidence: 1,
          write: write('update_field', { path }),
        });
      expect(await attempt(['buyer', 'name'])).toBeNull();
      expect(await attempt(['items', 5])).toBeNull();
      expect(await attempt(['total', 'cents'])).toBeNull();
      expect(await attempt(['vendor', 0])).toBeNull();
      expect(await attempt(['total'], 'u2')).toBeNull();
      expect(
        await repo.setField(tenantId, uniq('missing'), {
          userId: 'u1',
          path: ['total'],
          value: 1,
          confidence: 1,
          write: write('update_field'),
        }),
      ).toBeNull();
      const after = await repo.get(tenantId, x.id);
      expect(after?.fields).toEqual(INVOICE);
      expect(after?.confidences).toEqual(INVOICE_CONF);
      // Refused writes leave no history.
      expect((await repo.listWrites(tenantId, x.id)).map((w) => w.tool)).toEqual([
        'extract_fields',
      ]);
    });

    it('removes a key or an array element (the rest move up), with its confidence', async () => {
      const tenantId = await newTenant(store());
      const x = await extractionWith(store(), tenantId, INVOICE, INVOICE_CONF);
      const repo = store().documentExtractions;
      const remove = (path: (string | number)[], userId = 'u1') =>
        repo.removeField(tenantId, x.id, { userId, path, write: write('remove_field', { path }) });

      const noAddress = await remove(['vendor', 'address']);
      expect(noAddress?.fields.vendor).toEqual({ name: 'Acme' });
      expect(noAddress?.confidences.vendor).toEqual({ name: 0.9 });

      const noNut = await remove(['items', 1]);
      expect(noNut?.fields.items).toEqual([
        { name: 'Bolt', price: 2 },
        { name: 'Gear', price: 9 },
      ]);
      expect(noNut?.confidences.items).toEqual([
        { name: 0.9, price: 0.9 },
        { name: 0.9, price: 0.6 },
      ]);
      const noFirst = await remove(['items', 0]);
      expect(noFirst?.fields.items).toEqual([{ name: 'Gear', price: 9 }]);
      const noNote = await remove(['note']);
      expect(noNote?.fields).not.toHaveProperty('note');
      expect(noNote?.confidences).not.toHaveProperty('note');

      expect(await remove(['note'])).toBeNull();
      expect(await remove(['items', 4])).toBeNull();
      expect(await remove(['total'], 'u2')).toBeNull();
      expect((await repo.get(tenantId, x.id))?.fields).toEqual({
        vendor: { name: 'Acme' },
        items: [{ name: 'Gear', price: 9 }],
        total: 1204.5,
      });
    });

    it('removes an element of an array inside an array element', async () => {
      const tenantId = await newTenant(store());
      const fields = { groups: [{ tags: ['a'] }, { tags: ['b', 'c', 'd'], label: 'x' }] };
      const confidences = { groups: [{ tags: [0.1] }, { tags: [0.2, 0.3, 0.4], label: 0.5 }] };
      const x = await extractionWith(store(), tenantId, fields, confidences);
      const done = await store().documentExtractions.removeField(tenantId, x.id, {
        userId: 'u1',
        path: ['groups', 1, 'tags', 1],
        write: write('remove_field'),
      });
      expect(done?.fields).toEqual({ groups: [{ tags: ['a'] }, { tags: ['b', 'd'], label: 'x' }] });
      expect(done?.confidences).toEqual({
        groups: [{ tags: [0.1] }, { tags: [0.2, 0.4], label: 0.5 }],
      });
    });

    it('completes only with fields, records each write once in order, adds usage', async () => {
      const tenantId = await newTenant(store());
      const doc = await store().documents.create(tenantId, {
        userId: 'u1',
        fileName: 'a.txt',
        title: 'A',
        mimeType: 'text/plain',
        sizeBytes: 1,
        pages: [{ number: 1, text: 'a' }],
      });
      const repo = store().documentExtractions;
      const x = await repo.create(tenantId, { userId: 'u1', documentId: doc.id });
      expect(
        await repo.complete(tenantId, x.id, { userId: 'u1', write: write('complete_extraction') }),
      ).toBeNull();
      expect((await repo.get(tenantId, x.id))?.status).toBe('in_progress');

      const typed = await repo.setDocumentType(tenantId, x.id, {
        userId: 'u1',
        documentType: 'invoice',
        write: write('identify_document', { document_type: 'invoice' }),
      });
      expect(typed?.documentType).toBe('invoice');
      await repo.replaceFields(tenantId, x.id, {
        userId: 'u1',
        fields: { total: 5 },
        confidences: { total: 0.9 },
        write: write('extract_fields', { fields: { total: 5 }, $weird: { 'a.b': 1 } }),
      });
      await repo.setStatus(tenantId, x.id, { userId: 'u1', error: 'model timed out' });
      expect((await repo.get(tenantId, x.id))?.error).toBe('model timed out');
      const done = await repo.complete(tenantId, x.id, {
        userId: 'u1',
        write: write('complete_extraction'),
      });
      expect(done).toMatchObject({ status: 'completed', error: null, fields: { total: 5 } });

      const writes = await repo.listWrites(tenantId, x.id);
      expect(writes.map((w) => [w.seq, w.tool])).toEqual([
        [1, 'identify_document'],
        [2, 'extract_fields'],
        [3, 'complete_extraction'],
      ]);
      expect(writes[1]?.input).toEqual({ fields: { total: 5 }, $weird: { 'a.b': 1 } });
      writes.forEach((w) => expectIso(w.createdAt));
      // The part after a seq: what a stream follower missed, or the write just made.
      expect(await repo.listWrites(tenantId, x.id, { afterSeq: 1 })).toEqual(writes.slice(1));
      expect(await repo.listWrites(tenantId, x.id, { afterSeq: 2 })).toEqual(writes.slice(2));
      expect(await repo.listWrites(tenantId, x.id, { afterSeq: 3 })).toEqual([]);
      expect(await repo.listWrites(tenantId, x.id, { afterSeq: 0 })).toEqual(writes);

      await Promise.all([
        repo.addUsage(tenantId, x.id, { costMicroUsd: 120, tokens: 900 }),
        repo.addUsage(tenantId, x.id, { costMicroUsd: 30, tokens: 100 }),
      ]);
      expect(await repo.get(tenantId, x.id)).toMatchObject({ costMicroUsd: 150, tokens: 1000 });

      const failed = await repo.setStatus(tenantId, x.id, {
        userId: 'u1',
        status: 'failed',
        error: 'stopped',
      });
      expect(failed).toMatchObject({ status: 'failed', error: 'stopped' });
      expect(await repo.setStatus(tenantId, x.id, { userId: 'u2', error: null })).toBeNull();
    });
  });

  describe('stacks', () => {
    const store = useStore(makeStore);

    it('keeps columns and one row per document, cells written by column', async () => {
      const tenantId = await newTenant(store());
      const repo = store().stacks;
      const stack = await repo.create(tenantId, {
        userId: 'u1',
        name: 'March invoices',
        documentIds: ['d1', 'd2'],
      });
      expect(stack).toMatchObject({
        tenantId,
        userId: 'u1',
        name: 'March invoices',
        documentIds: ['d1', 'd2'],
        columns: [],
        status: 'in_progress',
        costMicroUsd: 0,
        tokens: 0,
        error: null,
        instructions: null,
      });
      expect(await repo.get(tenantId, stack.id, { userId: 'u2' })).toBeNull();
      expect(await repo.complete(tenantId, stack.id, { userId: 'u1' })).toBeNull();

      const columns = [
        { name: 'vendor', type: 'string' as const },
        { name: 'total', type: 'number' as const, description: 'Amount due' },
      ];
      expect(
        (await repo.setColumns(tenantId, stack.id, { userId: 'u1', columns }))?.columns,
      ).toEqual(columns);
      expect(await repo.setColumns(tenantId, stack.id, { userId: 'u2', columns: [] })).toBeNull();

      const second = await repo.putRow(tenantId, stack.id, {
        userId: 'u1',
        documentId: 'd2',
        cells: { vendor: 'Beta', total: 7 },
        confidences: { vendor: 0.9, total: 0.8 },
      });
      expect(second).toMatchObject({ documentId: 'd2', cells: { vendor: 'Beta', total: 7 } });
      await repo.putRow(tenantId, stack.id, {
        userId: 'u1',
        documentId: 'd1',
        cells: { vendor: 'Acme', total: 1 },
        confidences: { vendor: 0.9, total: 0.9 },
      });
      // Rewriting a row replaces it and keeps its place.
      await repo.putRow(tenantId, stack.id, {
        userId: 'u1',
        documentId: 'd2',
        cells: { vendor: 'Beta GmbH', total: 7 },
        confidences: { vendor: 0.95, total: 0.8 },
      });
      expect(
        await repo.putRow(tenantId, stack.id, {
          userId: 'u2',
          documentId: 'd1',
          cells: {},
          confidences: {},
        }),
      ).toBeNull();

      const cell = await repo.setCell(tenantId, stack.id, {
        userId: 'u1',
        documentId: 'd1',
        column: 'total',
        value: 1240.5,
        confidence: 1,
      });
      expect(cell).toMatchObject({
        cells: { vendor: 'Acme', total: 1240.5 },
        confidences: { vendor: 0.9, total: 1 },
      });
      // Every digit of a number kept, the confidence's too (17 significant digits).
      const exact = await repo.setCell(tenantId, stack.id, {
        userId: 'u1',
        documentId: 'd1',
        column: 'total',
        value: 0.30000000000000004,
        confidence: 0.7000000000000001,
      });
      expect(exact?.cells.total).toBe(0.30000000000000004);
      expect(exact?.confidences.total).toBe(0.7000000000000001);
      await repo.setCell(tenantId, stack.id, {
        userId: 'u1',
        documentId: 'd1',
        column: 'total',
        value: 1240.5,
        confidence: 1,
      });
      expect(
        await repo.setCell(tenantId, stack.id, {
          userId: 'u2',
          documentId: 'd1',
          column: 'total',
          value: 0,
          confidence: 1,
        }),
      ).toBeNull();
      expect(
        await repo.setCell(tenantId, stack.id, {
          userId: 'u1',
          documentId: 'd9',
          column: 'total',
          value: 0,
          confidence: 1,
        }),
      ).toBeNull();

      const rows = await repo.listRows(tenantId, stack.id);
      expect(rows.map((r) => [r.documentId, r.cells])).toEqual([
        ['d2', { vendor: 'Beta GmbH', total: 7 }],
        ['d1', { vendor: 'Acme', total: 1240.5 }],
      ]);

      await repo.addUsage(tenantId, stack.id, { costMicroUsd: 10, tokens: 20 });
      const done = await repo.complete(tenantId, stack.id, { userId: 'u1' });
      expect(done).toMatchObject({ status: 'completed', costMicroUsd: 10, tokens: 20 });
      await tick();
      const newer = await repo.create(tenantId, { userId: 'u1', name: 'B', documentIds: ['d3'] });
      expect((await repo.list(tenantId, { userId: 'u1' })).map((s) => s.id)).toEqual([
        newer.id,
        stack.id,
      ]);
      expect(await repo.list(tenantId, { userId: 'u2' })).toEqual([]);
    });
  });

  describe('documents: tenant isolation', () => {
    const store = useStore(makeStore);

    it('another tenant can neither read nor change documents, extractions or stacks', async () => {
      const a = await newTenant(store());
      const b = await newTenant(store());
      const x = await extractionWith(store(), b, { total: 1 }, { total: 0.9 });
      const stack = await store().stacks.create(b, {
        userId: 'u1',
        name: 'b',
        documentIds: [x.documentId],
      });
      await store().stacks.putRow(b, stack.id, {
        userId: 'u1',
        documentId: x.documentId,
        cells: { total: 1 },
        confidences: { total: 0.9 },
      });
      const repo = store().documentExtractions;
      const w = write('update_field');

      expect(await store().documents.get(a, x.documentId)).toBeNull();
      expect(await store().documents.list(a)).toEqual([]);
      expect(await repo.get(a, x.id)).toBeNull();
      expect((await repo.list(a)).items).toEqual([]);
      expect(
        await repo.setDocumentType(a, x.id, { userId: 'u1', documentType: 'x', write: w }),
      ).toBeNull();
      expect(
        await repo.replaceFields(a, x.id, { userId: 'u1', fields: {}, confidences: {}, write: w }),
      ).toBeNull();
      expect(
        await repo.setField(a, x.id, {
          userId: 'u1',
          path: ['total'],
          value: 2,
          confidence: 1,
          write: w,
        }),
      ).toBeNull();
      expect(
        await repo.removeField(a, x.id, { userId: 'u1', path: ['total'], write: w }),
      ).toBeNull();
      expect(await repo.complete(a, x.id, { userId: 'u1', write: w })).toBeNull();
      expect(
        await repo.setStatus(a, x.id, { userId: 'u1', status: 'failed', error: 'x' }),
      ).toBeNull();
      await repo.addUsage(a, x.id, { costMicroUsd: 99, tokens: 99 });
      expect(await repo.listWrites(a, x.id)).toEqual([]);

      expect(await store().stacks.get(a, stack.id)).toBeNull();
      expect(await store().stacks.list(a)).toEqual([]);
      expect(
        await store().stacks.setColumns(a, stack.id, { userId: 'u1', columns: [] }),
      ).toBeNull();
      expect(
        await store().stacks.setCell(a, stack.id, {
          userId: 'u1',
          documentId: x.documentId,
          column: 'total',
          value: 2,
          confidence: 1,
        }),
      ).toBeNull();
      expect(
        await store().stacks.putRow(a, stack.id, {
          userId: 'u1',
          documentId: x.documentId,
          cells: {},
          confidences: {},
        }),
      ).toBeNull();
      expect(await store().stacks.listRows(a, stack.id)).toEqual([]);
      expect(await store().stacks.complete(a, stack.id, { userId: 'u1' })).toBeNull();

      expect(await repo.get(b, x.id)).toEqual(x);
      expect((await repo.listWrites(b, x.id)).map((e) => e.tool)).toEqual(['extract_fields']);
      expect((await store().stacks.listRows(b, stack.id))[0]?.cells).toEqual({ total: 1 });
      expect(await store().stacks.get(b, stack.id)).toMatchObject({
        status: 'in_progress',
        costMicroUsd: 0,
      });
    });
  });
}
