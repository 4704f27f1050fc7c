// The document and extraction repositories' query documents, evaluated by mingo on
// stored-shape documents (the path writes of fields are mongo-field-updates.test.ts's).
import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../shared';
import type { DocumentExtractionDoc, SourceDocumentDoc } from './mongo-schema';
import {
  completeUpdate,
  documentsQuery,
  extractionSetUpdate,
  extractionsQuery,
  ownedFilter,
  replaceFieldsUpdate,
  usageUpdate,
  writesQuery,
} from './mongo-queries';
import { MingoCollection } from '../../mongo/queries/mingo-collection';

const at = (iso: string) => new Date(iso);

const doc = (id: string, over: Partial<SourceDocumentDoc> = {}): SourceDocumentDoc => ({
  id,
  tenantId: 't1',
  userId: 'u1',
  fileName: `${id}.pdf`,
  title: id,
  mimeType: 'application/pdf',
  sizeBytes: 10,
  pages: [{ number: 1, text: 'secret text' }],
  pageCount: 1,
  characters: 11,
  warnings: [],
  createdAt: at('2026-01-01T00:00:00Z'),
  ...over,
});

const extraction = (
  id: string,
  over: Partial<DocumentExtractionDoc> = {},
): DocumentExtractionDoc => ({
  id,
  tenantId: 't1',
  userId: 'u1',
  documentId: 'd1',
  status: 'in_progress',
  documentType: null,
  fields: {},
  confidences: {},
  schema: null,
  instructions: null,
  costMicroUsd: 0,
  tokens: 0,
  error: null,
  writes: [],
  createdAt: at('2026-01-01T00:00:00Z'),
  updatedAt: at('2026-01-01T00:00:00Z'),
  ...over,
});

const write = { tool: 'extract_fields', input: { fields: { $x: { 'a.b': 1 } } } };

describe('documents', () => {
  it("lists the user's documents newest first, without their text", () => {
    const docs = new MingoCollection([
      doc('a'),
      doc('b', { createdAt: at('2026-01-02T00:00:00Z') }),
      doc('c', { userId: 'u2' }),
      doc('d', { tenantId: 't2' }),
    ]);
    const q = documentsQuery('t1', 'u1', 10);
    const found = docs.find(q);
    expect(found.map((d) => d.id)).toEqual(['b', 'a']);
    expect(found[0]).not.toHaveProperty('pages');
    expect(docs.find(documentsQuery('t1', undefined, 10)).map((d) => d.id)).toEqual([
      'b',
      'c',
      'a',
    ]);
    expect(docs.findOne({ filter: ownedFilter('t1', 'c', 'u1') })).toBeNull();
  });
});

describe('document extractions', () => {
  it('pages newest first by (createdAt, id), by user and document, without the history', () => {
    const xs = new MingoCollection([
      extraction('x1', {
        writes: [{ tool: 't', input: '{}', createdAt: at('2026-01-01T00:00:00Z') }],
      }),
      extraction('x2'),
      extraction('x3', { createdAt: at('2026-01-03T00:00:00Z'), documentId: 'd2' }),
      extraction('x4', { userId: 'u2' }),
    ]);
    const first = xs.find(extractionsQuery('t1', { userId: 'u1' }, 2));
    expect(first.map((x) => x.id)).toEqual(['x3', 'x2']);
    expect(first[0]).not.toHaveProperty('writes');
    const cursor = encodeCursor(['2026-01-01T00:00:00.000Z', 'x2']);
    expect(xs.find(extractionsQuery('t1', { userId: 'u1', cursor }, 5)).map((x) => x.id)).toEqual([
      'x1',
    ]);
    expect(xs.find(extractionsQuery('t1', { documentId: 'd2' }, 5)).map((x) => x.id)).toEqual([
      'x3',
    ]);
  });

  it('writes a change and its history entry in one update; completes only with fields', () => {
    const xs = new MingoCollection([extraction('x1')]);
    const now = at('2026-01-05T00:00:00Z');
    expect(
      xs.findOneAndUpdate(
        completeUpdate('t1', 'x1', 'u1', { tool: 'complete_extraction', input: {} }, now),
      ),
    ).toBeNull();
    const saved = xs.findOneAndUpdate(
      replaceFieldsUpdate(
        't1',
        'x1',
        { userId: 'u1', fields: { total: 5 }, confidences: { total: 0.9 }, write },
        now,
      ),
    );
    expect(saved).toMatchObject({
      fields: { total: 5 },
      confidences: { total: 0.9 },
      updatedAt: now,
    });
    expect(saved?.writes).toEqual([
      { tool: 'extract_fields', input: JSON.stringify(write.input), createdAt: now },
    ]);
    expect(
      xs.findOneAndUpdate(
        extractionSetUpdate('t1', 'x1', 'u2', { documentType: 'stolen' }, write, now),
      ),
    ).toBeNull();
    const done = xs.findOneAndUpdate(
      completeUpdate('t1', 'x1', 'u1', { tool: 'complete_extraction', input: {} }, now),
    );
    expect(done).toMatchObject({ status: 'completed', error: null });
    expect(done?.writes.map((w) => w.tool)).toEqual(['extract_fields', 'complete_extraction']);
    xs.updateMany(usageUpdate('t1', 'x1', { costMicroUsd: 120.4, tokens: 900 }));
    xs.updateMany(usageUpdate('t1', 'x1', { costMicroUsd: 30, tokens: 100 }));
    expect(xs.findOne(writesQuery('t1', 'x1'))).toMatchObject({ writes: expect.any(Array) });
    const all = (xs.findOne(writesQuery('t1', 'x1')) as { writes: unknown[] }).writes;
    expect(all).toHaveLength(2);
    expect((xs.findOne(writesQuery('t1', 'x1', 1)) as { writes: unknown[] }).writes).toEqual(
      all.slice(1),
    );
    expect(xs.findOne({ filter: ownedFilter('t1', 'x1') })).toMatchObject({
      costMicroUsd: 150,
      tokens: 1000,
    });
  });
});
