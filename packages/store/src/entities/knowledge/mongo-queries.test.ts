// Knowledge documents, chunks and settings: their query documents, evaluated by mingo. Two
// server-only features are not in mingo, and are checked for their shape instead: the $text
// operator of lexical search and Atlas' $vectorSearch stage (with the $meta score it projects).
// Everything else those queries hold (the tenant/domain/current filter, the stage that turns a
// hit into a scored chunk) is evaluated.
import { describe, expect, it } from 'vitest';
import type { KnowledgeChunkDoc, KnowledgeDocumentDoc } from './mongo-schema';
import { knowledgeVectorIndexName } from './mongo-vector-index';
import {
  chunkCountsPipeline,
  chunksQuery,
  currentChunksFilter,
  documentBytesPipeline,
  documentChunksFilter,
  documentsQuery,
  documentUpdate,
  exactVectorFilter,
  lexicalSearchQuery,
  settingsFilter,
  settingsUpdate,
  supersedeUpdate,
  vectorHitStages,
  vectorSearchPipeline,
} from './mongo-queries';
import { MingoCollection } from '../../mongo/queries/mingo-collection';

const at = (iso: string) => new Date(iso);

const chunk = (id: string, over: Partial<KnowledgeChunkDoc> = {}): KnowledgeChunkDoc => ({
  id,
  tenantId: 't1',
  documentId: 'd1',
  domain: 'docs.example',
  ordinal: 0,
  content: `chunk ${id}`,
  headingPath: [],
  tokenCount: 3,
  embedding: [0.1, 0.2, 0.3],
  phase: null,
  triggerAction: null,
  supersededBy: null,
  createdAt: at('2025-01-01T00:00:00Z'),
  ...over,
});

const document = (id: string, over: Partial<KnowledgeDocumentDoc> = {}): KnowledgeDocumentDoc => ({
  id,
  tenantId: 't1',
  domain: 'docs.example',
  sourceUrl: null,
  title: id,
  mimeType: 'text/markdown',
  status: 'ready',
  metadata: { sizeBytes: 100 },
  createdAt: at('2025-01-01T00:00:00Z'),
  updatedAt: at('2025-01-01T00:00:00Z'),
  ...over,
});

describe('knowledge chunks', () => {
  const chunks = () => {
    const collection = new MingoCollection([
      chunk('a', { ordinal: 1 }),
      chunk('b', { ordinal: 0 }),
      chunk('old', { ordinal: 2, supersededBy: 'b' }),
      chunk('c', { documentId: 'd2', domain: 'help.example', embedding: [1, 0] }),
      chunk('x', { tenantId: 't2' }),
    ]);
    // A document written before supersededBy existed: missing counts as current.
    const legacy = collection.insert(chunk('legacy', { documentId: 'd3' }));
    delete (legacy as Partial<KnowledgeChunkDoc>).supersededBy;
    return collection;
  };
  const ids = (docs: KnowledgeChunkDoc[]) => docs.map((c) => c.id);

  it('lists current chunks by document and ordinal; superseded ones only when asked', () => {
    const all = chunks();
    expect(ids(all.find(chunksQuery('t1', {})))).toEqual(['b', 'a', 'c', 'legacy']);
    expect(ids(all.find(chunksQuery('t1', { includeSuperseded: true, documentId: 'd1' })))).toEqual(
      ['b', 'a', 'old'],
    );
    expect(ids(all.find(chunksQuery('t1', { domain: 'help.example' })))).toEqual(['c']);
    expect(ids(all.find(chunksQuery('t1', { domain: ['help.example', 'docs.example'] })))).toEqual([
      'b',
      'a',
      'c',
      'legacy',
    ]);
  });

  it('current chunks of the domains RAG may read (filter of lexical and vector search, hasChunks)', () => {
    const all = chunks();
    expect(ids(all.find({ filter: currentChunksFilter('t1', ['docs.example']) }))).toEqual([
      'a',
      'b',
      'legacy',
    ]);
    expect(all.find({ filter: currentChunksFilter('t1', []) })).toEqual([]);
    // The exact ranking reads only vectors of the query's length.
    expect(
      ids(all.find({ filter: exactVectorFilter('t1', ['docs.example', 'help.example'], 2) })),
    ).toEqual(['c']);
  });

  it('counts current chunks per document; supersedes by id within the tenant; deletes a document’s chunks', () => {
    const all = chunks();
    expect(
      all
        .aggregate<{ _id: string; chunks: number }>(chunkCountsPipeline('t1'))
        .sort((a, b) => a._id.localeCompare(b._id)),
    ).toEqual([
      { _id: 'd1', chunks: 2 },
      { _id: 'd2', chunks: 1 },
      { _id: 'd3', chunks: 1 },
    ]);
    expect(all.updateMany(supersedeUpdate('t1', ['a', 'x'], 'new')).matchedCount).toBe(1);
    expect(all.docs.find((c) => c.id === 'x')?.supersededBy).toBeNull();
    expect(all.deleteMany(documentChunksFilter('t1', 'd1'))).toBe(3);
  });

  it('lexical search: $text over the current chunks, scored, without embeddings', () => {
    const query = lexicalSearchQuery('t1', ['docs.example'], ['webhook', 'signature'], 5);
    const { $text, ...rest } = query.filter;
    expect($text).toEqual({ $search: 'webhook signature' });
    expect(rest).toEqual(currentChunksFilter('t1', ['docs.example']));
    expect(query.projection).toEqual({ score: { $meta: 'textScore' }, embedding: 0 });
    expect(query.sort).toEqual({ score: { $meta: 'textScore' }, id: 1 });
  });

  it('vector search: Atlas $vectorSearch pre-filtered like the rest, each hit merged with its score', () => {
    const pipeline = vectorSearchPipeline('t1', ['docs.example'], [0.5, 0.5, 0.5], 4);
    expect(pipeline[0]).toEqual({
      $vectorSearch: {
        index: knowledgeVectorIndexName(3),
        path: 'embedding',
        queryVector: [0.5, 0.5, 0.5],
        numCandidates: 200,
        limit: 4,
        filter: currentChunksFilter('t1', ['docs.example']),
      },
    });
    expect(pipeline.slice(1)).toEqual(vectorHitStages());
    // The $project before it ($meta) is Atlas'; what it yields is { score, doc }.
    const hits = new MingoCollection([{ score: 0.9, doc: chunk('a') }]);
    const [merged] = hits.aggregate(vectorHitStages().slice(1));
    expect(merged).toMatchObject({ id: 'a', tenantId: 't1', score: 0.9 });
  });
});

describe('knowledge documents and settings', () => {
  it('lists by domain or source oldest first; patches; sums sizes that are numbers', () => {
    const documents = new MingoCollection([
      document('d2', {
        createdAt: at('2025-01-02T00:00:00Z'),
        sourceUrl: 'https://docs.example/a',
      }),
      document('d1'),
      document('d3', { domain: 'help.example', metadata: { sizeBytes: 'n/a' } }),
      document('d4', { tenantId: 't2', metadata: { sizeBytes: 1_000 } }),
    ]);
    expect(documents.find(documentsQuery('t1', {})).map((d) => d.id)).toEqual(['d1', 'd3', 'd2']);
    expect(
      documents.find(documentsQuery('t1', { domain: 'docs.example' })).map((d) => d.id),
    ).toEqual(['d1', 'd2']);
    expect(
      documents
        .find(documentsQuery('t1', { sourceUrl: 'https://docs.example/a' }))
        .map((d) => d.id),
    ).toEqual(['d2']);
    expect(documents.aggregate(documentBytesPipeline('t1'))).toEqual([{ _id: null, bytes: 200 }]);
    const now = at('2025-03-01T00:00:00Z');
    expect(
      documents.findOneAndUpdate(
        documentUpdate('t1', 'd1', { status: 'failed', metadata: { sizeBytes: 5 } }, now),
      ),
    ).toMatchObject({ status: 'failed', metadata: { sizeBytes: 5 }, title: 'd1', updatedAt: now });
  });

  it('settings: one document per tenant, created by the first update', () => {
    const settings = new MingoCollection();
    const now = at('2025-03-01T00:00:00Z');
    settings.findOneAndUpdate(settingsUpdate('t1', ['docs.example'], now));
    settings.findOneAndUpdate(settingsUpdate('t1', ['help.example'], now));
    expect(settings.docs).toHaveLength(1);
    expect(settings.findOne({ filter: settingsFilter('t1') })).toMatchObject({
      tenantId: 't1',
      allowedDomains: ['help.example'],
    });
  });
});
