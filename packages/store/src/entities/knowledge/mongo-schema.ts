// The knowledge collections. Every index the adapter relies on is declared here:
// createMongoStore's syncIndexes() drops the ones that are not (the Atlas vector search index is
// no B-tree index: mongo-vector-index.ts).
import { Mixed, SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import type { KnowledgeChunk, KnowledgeDocument, KnowledgeJob, KnowledgeSettings } from './record';

export type KnowledgeDocumentDoc = MongoDoc<
  KnowledgeDocument,
  'createdAt' | 'updatedAt',
  'metadata'
>;

export type KnowledgeChunkDoc = MongoDoc<KnowledgeChunk, 'createdAt', 'headingPath' | 'embedding'>;

/** A tenant's settings are stored by their first update, so `updatedAt` is always set. */
export type KnowledgeSettingsDoc = MongoDoc<KnowledgeSettings, never, 'allowedDomains'> & {
  updatedAt: Date;
};

export type KnowledgeJobDoc = Omit<
  MongoDoc<
    KnowledgeJob,
    'createdAt' | 'updatedAt' | 'startedAt' | 'finishedAt',
    'progress' | 'frontier' | 'visited'
  >,
  'errors' | 'upload'
> & {
  /**
   * The record's `errors`, renamed like ExtractionResultDoc's: mongoose reserves `errors` on
   * its documents.
   */
  pageErrors: unknown;
  /** An upload job's file and outcome; absent on crawls (and on jobs stored before uploads). */
  upload?: unknown;
};

export const knowledgeDocumentSchema = new Schema<KnowledgeDocumentDoc>(
  {
    ...tenantOwned,
    domain: String,
    sourceUrl: String,
    title: String,
    mimeType: String,
    status: String,
    metadata: Mixed,
    createdAt: Date,
    updatedAt: Date,
  },
  SCHEMA_OPTIONS,
);
knowledgeDocumentSchema.index({ tenantId: 1, id: 1 }, { unique: true });
knowledgeDocumentSchema.index({ tenantId: 1, createdAt: 1, id: 1 });
knowledgeDocumentSchema.index({ tenantId: 1, domain: 1, createdAt: 1 });
// listDocuments({ sourceUrl }): re-ingesting a page finds its document.
knowledgeDocumentSchema.index({ tenantId: 1, sourceUrl: 1 });

export const knowledgeChunkSchema = new Schema<KnowledgeChunkDoc>(
  {
    ...tenantOwned,
    documentId: String,
    domain: String,
    ordinal: Number,
    content: String,
    headingPath: Mixed,
    tokenCount: Number,
    embedding: Mixed,
    phase: String,
    triggerAction: String,
    supersededBy: String,
    createdAt: Date,
  },
  SCHEMA_OPTIONS,
);
knowledgeChunkSchema.index({ tenantId: 1, id: 1 }, { unique: true });
knowledgeChunkSchema.index({ tenantId: 1, documentId: 1, ordinal: 1 });
knowledgeChunkSchema.index({ tenantId: 1, domain: 1, documentId: 1, ordinal: 1 });
// searchLexical ($text). A collection has one text index; the tenantId prefix makes every
// $text query name its tenant (Mongo refuses one without an equality on it) and keeps each
// search inside that tenant's index range. headingPath (an array of strings) is searched with
// the content. Vector search lives in Atlas search indexes instead: mongo-vector-index.ts.
knowledgeChunkSchema.index(
  { tenantId: 1, content: 'text', headingPath: 'text' },
  { name: 'knowledge_chunks_text', default_language: 'english' },
);

export const knowledgeSettingsSchema = new Schema<KnowledgeSettingsDoc>(
  { tenantId: { type: String, required: true }, allowedDomains: Mixed, updatedAt: Date },
  SCHEMA_OPTIONS,
);
knowledgeSettingsSchema.index({ tenantId: 1 }, { unique: true });

export const knowledgeJobSchema = new Schema<KnowledgeJobDoc>(
  {
    ...tenantOwned,
    userId: String,
    kind: String,
    url: String,
    strategy: String,
    maxPages: Number,
    maxDepth: Number,
    domain: String,
    status: String,
    progress: Mixed,
    frontier: Mixed,
    visited: Mixed,
    pageErrors: Mixed,
    error: String,
    createdAt: Date,
    updatedAt: Date,
    startedAt: Date,
    finishedAt: Date,
    upload: Mixed,
  },
  SCHEMA_OPTIONS,
);
knowledgeJobSchema.index({ tenantId: 1, id: 1 }, { unique: true });
knowledgeJobSchema.index({ tenantId: 1, createdAt: -1, id: -1 });
// listUnfinished: a restarted server resumes every tenant's queued and running crawls.
knowledgeJobSchema.index({ status: 1, createdAt: 1, id: 1 });
