// The documents and document-extractions collections. Every index the adapter relies on is
// declared here: createMongoStore's syncIndexes() drops the ones that are not.
import { Mixed, SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import type { DocumentExtraction, DocumentRecord, WriteRecord } from './record';

export type SourceDocumentDoc = Omit<
  MongoDoc<DocumentRecord, 'createdAt', 'pages' | 'warnings'>,
  'status' | 'error' | 'failureCode'
> &
  /** Absent on documents stored before upload jobs: those were read at upload, so `ready`. */
  Partial<Pick<DocumentRecord, 'status' | 'error' | 'failureCode'>>;

/** One entry of an extraction's embedded write history (seq is its position + 1). */
export interface ExtractionWriteDoc extends Pick<WriteRecord, 'tool'> {
  /** The tool's input as JSON text: a model's keys ("$x", "a.b") are no field names to store. */
  input: string;
  createdAt: Date;
}

export type DocumentExtractionDoc = MongoDoc<
  DocumentExtraction,
  'createdAt' | 'updatedAt',
  'fields' | 'confidences' | 'schema'
> & {
  /**
   * The history lives in the extraction's own document so that a change and its entry are one
   * single-document update, atomic on any MongoDB deployment (multi-document transactions
   * need a replica set). Reads project it out; listWrites reads only it.
   */
  writes: ExtractionWriteDoc[];
};

export const sourceDocumentSchema = new Schema<SourceDocumentDoc>(
  {
    ...tenantOwned,
    userId: String,
    fileName: String,
    title: String,
    mimeType: String,
    sizeBytes: Number,
    pages: Mixed,
    pageCount: Number,
    characters: Number,
    warnings: Mixed,
    status: String,
    error: String,
    failureCode: String,
    createdAt: Date,
  },
  SCHEMA_OPTIONS,
);
sourceDocumentSchema.index({ tenantId: 1, id: 1 }, { unique: true });
sourceDocumentSchema.index({ tenantId: 1, userId: 1, createdAt: -1, id: -1 });
sourceDocumentSchema.index({ tenantId: 1, createdAt: -1, id: -1 });

export const documentExtractionSchema = new Schema<DocumentExtractionDoc>(
  {
    ...tenantOwned,
    userId: String,
    documentId: String,
    status: String,
    documentType: String,
    fields: Mixed,
    confidences: Mixed,
    schema: Mixed,
    instructions: String,
    costMicroUsd: Number,
    tokens: Number,
    error: String,
    writes: Mixed,
    createdAt: Date,
    updatedAt: Date,
  },
  SCHEMA_OPTIONS,
);
documentExtractionSchema.index({ tenantId: 1, id: 1 }, { unique: true });
documentExtractionSchema.index({ tenantId: 1, createdAt: -1, id: -1 });
documentExtractionSchema.index({ tenantId: 1, userId: 1, createdAt: -1, id: -1 });
documentExtractionSchema.index({ tenantId: 1, documentId: 1, createdAt: -1, id: -1 });
