// Knowledge documents and their chunks. Chunks copy the document's domain so RAG can read a
// domain's chunks from one index without a $lookup.
import type { KnowledgeChunk, KnowledgeDocument, KnowledgeRepository } from '../port';
import { newKnowledgeChunkRecord, newKnowledgeDocumentRecord } from '../record-defaults';
import { nowIso } from '../shared';
import type { KnowledgeChunkDoc, KnowledgeDocumentDoc } from './documents';
import type { MongoModels } from './schemas';
import { fromJson, iso, jsonValue, nowDate, orNull, toDate } from './util';

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

export function mongoKnowledge({
  knowledgeDocuments,
  knowledgeChunks,
}: MongoModels): KnowledgeRepository {
  const getDocument = async (tenantId: string, id: string): Promise<KnowledgeDocument | null> => {
    const doc = await knowledgeDocuments.findOne({ tenantId, id }).lean().exec();
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
      const filter: Record<string, unknown> = { tenantId };
      if (options.domain !== undefined) filter.domain = options.domain;
      const docs = await knowledgeDocuments
        .find(filter)
        .sort({ createdAt: 1, id: 1 })
        .lean()
        .exec();
      return docs.map(toDocument);
    },

    async updateDocument(tenantId, id, patch) {
      const set: Record<string, unknown> = { updatedAt: nowDate() };
      if (patch.status !== undefined) set.status = patch.status;
      if (patch.title !== undefined) set.title = patch.title;
      if (patch.metadata !== undefined) set.metadata = jsonValue(patch.metadata);
      const doc = await knowledgeDocuments
        .findOneAndUpdate({ tenantId, id }, { $set: set }, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toDocument(doc) : null;
    },

    async deleteDocument(tenantId, id) {
      // No multi-document transaction (a standalone server has none): chunks go first, so a
      // crash in between leaves a chunkless document to delete again, never orphan chunks that
      // RAG would still retrieve.
      await knowledgeChunks.deleteMany({ tenantId, documentId: id }).exec();
      const result = await knowledgeDocuments.deleteOne({ tenantId, id }).exec();
      return result.deletedCount > 0;
    },

    async addChunks(tenantId, documentId, chunks) {
      const document = await getDocument(tenantId, documentId);
      if (document === null) throw new Error(`Knowledge document ${documentId} not found`);
      if (chunks.length === 0) return [];
      const now = nowIso();
      const docs = chunks.map((chunk): KnowledgeChunkDoc => {
        const record = newKnowledgeChunkRecord(tenantId, document, chunk, now);
        return {
          ...record,
          headingPath: jsonValue(record.headingPath),
          embedding: jsonValue(record.embedding),
          createdAt: toDate(record.createdAt),
        };
      });
      await knowledgeChunks.insertMany(docs, { ordered: true });
      return docs.map(toChunk);
    },

    async listChunks(tenantId, options = {}) {
      const filter: Record<string, unknown> = { tenantId };
      if (options.documentId !== undefined) filter.documentId = options.documentId;
      if (typeof options.domain === 'string') filter.domain = options.domain;
      else if (options.domain !== undefined) filter.domain = { $in: options.domain };
      // Matches null and missing alike.
      if (options.includeSuperseded !== true) filter.supersededBy = null;
      const docs = await knowledgeChunks
        .find(filter)
        .sort({ documentId: 1, ordinal: 1, _id: 1 })
        .lean()
        .exec();
      return docs.map(toChunk);
    },

    async markSuperseded(tenantId, chunkIds, supersededBy) {
      if (chunkIds.length === 0) return 0;
      const result = await knowledgeChunks
        .updateMany({ tenantId, id: { $in: chunkIds } }, { $set: { supersededBy } })
        .exec();
      // Matched, not modified: a chunk already pointing at the same successor still counts,
      // as it does in SQL.
      return result.matchedCount;
    },
  };
}
