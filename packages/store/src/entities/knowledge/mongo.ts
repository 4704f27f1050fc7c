// Knowledge documents and their chunks. Chunks copy the document's domain so RAG can read a
// domain's chunks from one index without a $lookup. Lexical search uses the chunks' text index
// ($text), vector search Atlas `$vectorSearch` (mongo-vector-index.ts), with an exact
// cosine ranking in JS where the server has no Atlas Search.
import mongoose from 'mongoose';
import {
  assertFiniteVector,
  cosineSimilarity,
  isZeroVector,
  queryTerms,
  searchLimit,
} from './search';
import {
  defaultKnowledgeSettings,
  newKnowledgeChunkRecord,
  newKnowledgeDocumentRecord,
  type KnowledgeChunk,
  type KnowledgeDocument,
  type KnowledgeRepository,
  type KnowledgeSettings,
  type ScoredKnowledgeChunk,
} from './record';
import { nowIso } from '../../shared';
import type { KnowledgeChunkDoc, KnowledgeDocumentDoc, KnowledgeSettingsDoc } from './mongo-schema';
import {
  ensureKnowledgeVectorIndex,
  isSearchUnsupported,
  isServerError,
} from './mongo-vector-index';
import {
  chunkCountsPipeline,
  chunksQuery,
  currentChunksFilter,
  documentBytesPipeline,
  documentChunksFilter,
  documentFilter,
  documentsQuery,
  documentUpdate,
  exactVectorFilter,
  lexicalSearchQuery,
  settingsFilter,
  settingsUpdate,
  supersedeUpdate,
  vectorSearchPipeline,
} from './mongo-queries';
import { tenantScope } from '../../mongo/queries/spec';
import type { MongoModels } from '../../mongo/schemas';
import {
  fromJson,
  iso,
  jsonValue,
  nowDate,
  orNull,
  retryOnDuplicate,
  toDate,
} from '../../mongo/util';

/**
 * Embeddings are written as BSON doubles even when a value is integral (the driver would write
 * 1 or 0 as int32): Atlas Vector Search indexes arrays of doubles. Reads promote them back to
 * plain numbers.
 */
const toBsonVector = (embedding: number[]): unknown[] =>
  embedding.map((value) => new mongoose.mongo.Double(value));

const toDocument = (doc: KnowledgeDocumentDoc): KnowledgeDocument => ({
  id: doc.id,
  tenantId: doc.tenantId,
  domain: doc.domain,
  sourceUrl: orNull(doc.sourceUrl),
  title: doc.title,
  mimeType: doc.mimeType,
  status: doc.status,
  metadata: fromJson<Record<string, unknown> | null>(doc.metadata) ?? {},
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});

/** A search result: the chunk without its embedding (see ScoredKnowledgeChunk). */
const searchChunk = (doc: KnowledgeChunkDoc): KnowledgeChunk =>
  toChunk({ ...doc, embedding: null });

const toChunk = (doc: KnowledgeChunkDoc): KnowledgeChunk => ({
  id: doc.id,
  tenantId: doc.tenantId,
  documentId: doc.documentId,
  domain: doc.domain,
  ordinal: doc.ordinal,
  content: doc.content,
  headingPath: fromJson<string[] | null>(doc.headingPath) ?? [],
  tokenCount: doc.tokenCount,
  embedding: fromJson<number[] | null>(doc.embedding),
  phase: orNull(doc.phase),
  triggerAction: orNull(doc.triggerAction),
  supersededBy: orNull(doc.supersededBy),
  createdAt: iso(doc.createdAt),
});

const toSettings = (doc: KnowledgeSettingsDoc): KnowledgeSettings => ({
  tenantId: doc.tenantId,
  allowedDomains: fromJson<string[] | null>(doc.allowedDomains) ?? [],
  updatedAt: iso(doc.updatedAt),
});

type ScoredChunkDoc = KnowledgeChunkDoc & { score: number };

/** Keeps the `size` best of a stream: score descending, then id (as the libSQL adapter ties). */
function pushTopK(top: ScoredKnowledgeChunk[], item: ScoredKnowledgeChunk, size: number): void {
  const before = (a: ScoredKnowledgeChunk, b: ScoredKnowledgeChunk): boolean =>
    a.score > b.score || (a.score === b.score && a.chunk.id < b.chunk.id);
  const last = top[top.length - 1];
  if (top.length >= size && last !== undefined && !before(item, last)) return;
  let i = top.length;
  while (i > 0) {
    const previous = top[i - 1];
    if (previous === undefined || !before(item, previous)) break;
    i -= 1;
  }
  top.splice(i, 0, item);
  if (top.length > size) top.pop();
}

export function mongoKnowledge({
  knowledgeDocuments,
  knowledgeChunks,
  knowledgeSettings,
}: MongoModels): KnowledgeRepository {
  // Set once a server has told us it has no Atlas Search: later searches skip the round trip.
  let vectorSearchUnsupported = false;
  // Per dimension, the one attempt (per process) to make sure its vector index exists.
  const vectorIndexes = new Map<number, Promise<boolean>>();
  const ensureVectorIndex = (dimensions: number): Promise<boolean> => {
    const known = vectorIndexes.get(dimensions);
    if (known !== undefined) return known;
    const attempt = ensureKnowledgeVectorIndex(knowledgeChunks, dimensions).catch(() => {
      // Not "unsupported" but a real failure (permissions, a transient error): the chunks are
      // stored either way, and the next write of this dimension tries again.
      vectorIndexes.delete(dimensions);
      return false;
    });
    vectorIndexes.set(dimensions, attempt);
    return attempt;
  };

  /** Exact cosine over the tenant's current chunks of these domains with the query's length. */
  const exactVectorSearch = async (
    tenantId: string,
    domains: string[],
    embedding: number[],
    limit: number,
  ): Promise<ScoredKnowledgeChunk[]> => {
    const top: ScoredKnowledgeChunk[] = [];
    const cursor = knowledgeChunks
      .find(exactVectorFilter(tenantId, domains, embedding.length))
      .lean()
      .cursor();
    for await (const doc of cursor) {
      const vector = fromJson<number[] | null>(doc.embedding);
      const score = vector === null ? null : cosineSimilarity(embedding, vector);
      if (score !== null) pushTopK(top, { chunk: searchChunk(doc), score }, limit);
    }
    return top;
  };

  const getDocument = async (tenantId: string, id: string): Promise<KnowledgeDocument | null> => {
    const doc = await knowledgeDocuments.findOne(documentFilter(tenantId, id)).lean().exec();
    return doc ? toDocument(doc) : null;
  };

  return {
    async createDocument(tenantId, input) {
      const document = newKnowledgeDocumentRecord(tenantId, input, nowIso());
      const doc: KnowledgeDocumentDoc = {
        ...document,
        metadata: jsonValue(document.metadata),
        createdAt: toDate(document.createdAt),
        updatedAt: toDate(document.updatedAt),
      };
      await knowledgeDocuments.create(doc);
      return toDocument(doc);
    },

    getDocument,

    async listDocuments(tenantId, options = {}) {
      const query = documentsQuery(tenantId, options);
      const docs = await knowledgeDocuments.find(query.filter).sort(query.sort).lean().exec();
      return docs.map(toDocument);
    },

    async updateDocument(tenantId, id, patch) {
      const { filter, update } = documentUpdate(tenantId, id, patch, nowDate());
      const doc = await knowledgeDocuments
        .findOneAndUpdate(filter, update, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toDocument(doc) : null;
    },

    async deleteDocument(tenantId, id) {
      // No multi-document transaction (a standalone server has none): chunks go first, so a
      // crash in between leaves a chunkless document to delete again, never orphan chunks that
      // RAG would still retrieve.
      await knowledgeChunks.deleteMany(documentChunksFilter(tenantId, id)).exec();
      const result = await knowledgeDocuments.deleteOne(documentFilter(tenantId, id)).exec();
      return result.deletedCount > 0;
    },

    async addChunks(tenantId, documentId, chunks) {
      const document = await getDocument(tenantId, documentId);
      if (document === null) throw new Error(`Knowledge document ${documentId} not found`);
      if (chunks.length === 0) return [];
      const now = nowIso();
      const records = chunks.map((chunk) =>
        newKnowledgeChunkRecord(tenantId, document, chunk, now),
      );
      for (const record of records) {
        if (record.embedding !== null) assertFiniteVector(record.embedding, 'Chunk embedding');
      }
      const stored = records.map((record): KnowledgeChunkDoc => {
        const embedding = jsonValue(record.embedding) as number[] | null;
        return {
          ...record,
          headingPath: jsonValue(record.headingPath),
          embedding,
          createdAt: toDate(record.createdAt),
        };
      });
      await knowledgeChunks.insertMany(
        stored.map((doc) => ({
          ...doc,
          embedding: Array.isArray(doc.embedding) ? toBsonVector(doc.embedding) : doc.embedding,
        })),
        { ordered: true },
      );
      const dimensions = new Set(
        records.flatMap((r) =>
          r.embedding !== null && r.embedding.length > 0 ? [r.embedding.length] : [],
        ),
      );
      if (!vectorSearchUnsupported) {
        for (const n of dimensions) await ensureVectorIndex(n);
      }
      return stored.map(toChunk);
    },

    async listChunks(tenantId, options = {}) {
      const query = chunksQuery(tenantId, options);
      const docs = await knowledgeChunks.find(query.filter).sort(query.sort).lean().exec();
      return docs.map(toChunk);
    },

    async markSuperseded(tenantId, chunkIds, supersededBy) {
      if (chunkIds.length === 0) return 0;
      const { filter, update } = supersedeUpdate(tenantId, chunkIds, supersededBy);
      const result = await knowledgeChunks.updateMany(filter, update).exec();
      // Matched, not modified: a chunk already pointing at the same successor still counts,
      // as it does in SQL.
      return result.matchedCount;
    },

    async searchLexical(tenantId, { domains, query, limit }) {
      const max = searchLimit(limit);
      const terms = queryTerms(query);
      if (terms.length === 0 || domains.length === 0 || max < 1) return [];
      const lexical = lexicalSearchQuery(tenantId, domains, terms, max);
      const docs = (await knowledgeChunks
        .find(lexical.filter, lexical.projection)
        .sort(lexical.sort)
        .limit(max)
        .lean()
        .exec()) as unknown as ScoredChunkDoc[];
      return docs.map(({ score, ...doc }) => ({ chunk: searchChunk(doc), score }));
    },

    async searchVector(tenantId, { domains, embedding, limit }) {
      const max = searchLimit(limit);
      if (embedding.length === 0 || domains.length === 0 || max < 1) return [];
      assertFiniteVector(embedding, 'Query embedding');
      if (isZeroVector(embedding)) return [];
      if (!vectorSearchUnsupported) {
        try {
          const docs = await knowledgeChunks
            .aggregate<ScoredChunkDoc>(vectorSearchPipeline(tenantId, domains, embedding, max))
            .exec();
          // Fewer than asked: the index of this dimension may not exist or still be building
          // (Atlas then answers nothing rather than an error). The exact ranking is the truth.
          if (docs.length >= max) {
            // Atlas normalises cosine to (1 + cos) / 2; the port's score is cos itself.
            return docs.map(({ score, ...doc }) => ({
              chunk: searchChunk(doc),
              score: 2 * score - 1,
            }));
          }
        } catch (error) {
          // A server without Atlas Search rejects the stage; anything else is a real failure.
          if (!isServerError(error)) throw error;
          if (isSearchUnsupported(error)) vectorSearchUnsupported = true;
        }
      }
      return exactVectorSearch(tenantId, domains, embedding, max);
    },

    async hasChunks(tenantId, domains) {
      if (domains.length === 0) return false;
      const found = await knowledgeChunks.exists(currentChunksFilter(tenantId, domains)).exec();
      return found !== null;
    },

    async countChunks(tenantId) {
      const rows = await knowledgeChunks
        .aggregate<{ _id: string; chunks: number }>(chunkCountsPipeline(tenantId))
        .exec();
      const counts: Record<string, number> = {};
      for (const row of rows) counts[row._id] = row.chunks;
      return counts;
    },

    async usage(tenantId) {
      const [documents, chunks, sizes] = await Promise.all([
        knowledgeDocuments.countDocuments(tenantScope(tenantId)).exec(),
        knowledgeChunks.countDocuments(tenantScope(tenantId)).exec(),
        // $sum skips values that are not numbers, as the libSQL query does.
        knowledgeDocuments.aggregate<{ bytes: number }>(documentBytesPipeline(tenantId)).exec(),
      ]);
      return { documents, chunks, bytes: sizes[0]?.bytes ?? 0 };
    },

    async getSettings(tenantId) {
      const doc = await knowledgeSettings.findOne(settingsFilter(tenantId)).lean().exec();
      return doc ? toSettings(doc) : defaultKnowledgeSettings(tenantId);
    },

    async updateSettings(tenantId, patch) {
      const { filter, update } = settingsUpdate(tenantId, patch.allowedDomains, nowDate());
      const doc = await retryOnDuplicate(() =>
        knowledgeSettings
          .findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' })
          .lean()
          .exec(),
      );
      if (doc === null) throw new Error('mongo: knowledge settings were not returned');
      return toSettings(doc);
    },
  };
}
