// Documents and their extractions. Every tool write is one findOneAndUpdate of the
// extraction's document: the change by path (mongo-field-updates.ts) and the $push of its
// history entry together, so they succeed or fail as one.
import {
  newDocumentExtractionRecord,
  newDocumentRecord,
  type DocumentExtraction,
  type DocumentExtractionRepository,
  type DocumentRecord,
  type DocumentRepository,
  type DocumentSummary,
} from './record';
import { clampLimit, encodeCursor, nowIso } from '../../shared';
import type { DocumentExtractionDoc, SourceDocumentDoc } from './mongo-schema';
import {
  completeUpdate,
  documentsQuery,
  extractionSetUpdate,
  extractionsQuery,
  ownedFilter,
  replaceFieldsUpdate,
  usageUpdate,
  WITHOUT_WRITES,
  writeEntry,
  writesQuery,
} from './mongo-queries';
import { removeFieldUpdate, setFieldUpdates } from './mongo-field-updates';
import type { UpdateSpec } from '../../mongo/queries/spec';
import type { MongoModels } from '../../mongo/schemas';
import { fromJson, iso, jsonValue, nowDate, toDate } from '../../mongo/util';

const toSummary = (doc: Omit<SourceDocumentDoc, 'pages'>): DocumentSummary => ({
  id: doc.id,
  tenantId: doc.tenantId,
  userId: doc.userId,
  fileName: doc.fileName,
  title: doc.title,
  mimeType: doc.mimeType,
  sizeBytes: doc.sizeBytes,
  pageCount: doc.pageCount,
  characters: doc.characters,
  warnings: fromJson<string[]>(doc.warnings),
  status: doc.status ?? 'ready',
  error: doc.error ?? null,
  failureCode: doc.failureCode ?? null,
  createdAt: iso(doc.createdAt),
});

const toDocument = (doc: SourceDocumentDoc): DocumentRecord => ({
  ...toSummary(doc),
  pages: fromJson<DocumentRecord['pages']>(doc.pages),
});

export function mongoDocuments({ documents }: MongoModels): DocumentRepository {
  return {
    async create(tenantId, input) {
      const record = newDocumentRecord(tenantId, input, nowIso());
      await documents.create({
        ...record,
        pages: jsonValue(record.pages),
        warnings: jsonValue(record.warnings),
        createdAt: toDate(record.createdAt),
      });
      return record;
    },
    async get(tenantId, id, options = {}) {
      const doc = await documents
        .findOne(ownedFilter(tenantId, id, options.userId))
        .lean()
        .exec();
      return doc ? toDocument(doc) : null;
    },
    async list(tenantId, options = {}) {
      const q = documentsQuery(tenantId, options.userId, clampLimit(options.limit, 50));
      const docs = await documents
        .find(q.filter, q.projection)
        .sort(q.sort)
        .limit(q.limit ?? 50)
        .lean()
        .exec();
      return docs.map(toSummary);
    },
    async markReady(tenantId, id, input) {
      const pages = input.pages.map((page) => ({ number: page.number, text: page.text }));
      // One conditional update: only a `processing` document changes, so a finished one (by
      // a worker that took the job over) is never overwritten.
      const doc = await documents
        .findOneAndUpdate(
          { tenantId, id, status: 'processing' },
          {
            $set: {
              status: 'ready',
              error: null,
              failureCode: null,
              title: input.title,
              mimeType: input.mimeType,
              pages: jsonValue(pages),
              pageCount: pages.length,
              characters: pages.reduce((sum, page) => sum + page.text.length, 0),
              warnings: jsonValue(input.warnings),
            },
          },
          { returnDocument: 'after' },
        )
        .lean()
        .exec();
      return doc ? toDocument(doc) : null;
    },
    async markFailed(tenantId, id, input) {
      const doc = await documents
        .findOneAndUpdate(
          { tenantId, id, status: 'processing' },
          { $set: { status: 'failed', error: input.error, failureCode: input.failureCode } },
          { returnDocument: 'after' },
        )
        .lean()
        .exec();
      return doc ? toDocument(doc) : null;
    },
    async reopen(tenantId, id) {
      const doc = await documents
        .findOneAndUpdate(
          { tenantId, id, status: 'failed' },
          { $set: { status: 'processing', error: null, failureCode: null } },
          { returnDocument: 'after' },
        )
        .lean()
        .exec();
      return doc ? toDocument(doc) : null;
    },
  };
}

const toExtraction = (doc: Omit<DocumentExtractionDoc, 'writes'>): DocumentExtraction => ({
  id: doc.id,
  tenantId: doc.tenantId,
  userId: doc.userId,
  documentId: doc.documentId,
  status: doc.status,
  documentType: doc.documentType ?? null,
  fields: fromJson<Record<string, unknown>>(doc.fields),
  confidences: fromJson<Record<string, unknown>>(doc.confidences),
  schema: fromJson<Record<string, unknown> | null>(doc.schema),
  instructions: doc.instructions ?? null,
  costMicroUsd: doc.costMicroUsd,
  tokens: doc.tokens,
  error: doc.error ?? null,
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});

export function mongoDocumentExtractions({
  documentExtractions,
}: MongoModels): DocumentExtractionRepository {
  async function apply(spec: UpdateSpec): Promise<DocumentExtraction | null> {
    const doc = await documentExtractions
      .findOneAndUpdate(spec.filter, spec.update, {
        returnDocument: 'after',
        projection: WITHOUT_WRITES,
        // The array-element removal is an update pipeline (mongo-field-updates.ts).
        updatePipeline: Array.isArray(spec.update),
      })
      .lean()
      .exec();
    return doc ? toExtraction(doc) : null;
  }

  /** Applies the first update whose guard matches; null when none does. */
  async function applyFirst(specs: UpdateSpec[]): Promise<DocumentExtraction | null> {
    for (const spec of specs) {
      const done = await apply(spec);
      if (done) return done;
    }
    return null;
  }

  return {
    async create(tenantId, input) {
      const x = newDocumentExtractionRecord(tenantId, input, nowIso());
      const doc: DocumentExtractionDoc = {
        ...x,
        fields: jsonValue(x.fields),
        confidences: jsonValue(x.confidences),
        schema: jsonValue(x.schema),
        writes: [],
        createdAt: toDate(x.createdAt),
        updatedAt: toDate(x.updatedAt),
      };
      await documentExtractions.create(doc);
      return toExtraction(doc);
    },

    async get(tenantId, id, options = {}) {
      const doc = await documentExtractions
        .findOne(ownedFilter(tenantId, id, options.userId), WITHOUT_WRITES)
        .lean()
        .exec();
      return doc ? toExtraction(doc) : null;
    },

    async list(tenantId, options = {}) {
      const limit = clampLimit(options.limit, 20);
      const q = extractionsQuery(tenantId, options, limit + 1);
      const docs = await documentExtractions
        .find(q.filter, q.projection)
        .sort(q.sort)
        .limit(limit + 1)
        .lean()
        .exec();
      const items = docs.slice(0, limit).map(toExtraction);
      const last = items[items.length - 1];
      return {
        items,
        nextCursor: docs.length > limit && last ? encodeCursor([last.createdAt, last.id]) : null,
      };
    },

    setDocumentType: (tenantId, id, input) =>
      apply(
        extractionSetUpdate(
          tenantId,
          id,
          input.userId,
          { documentType: input.documentType },
          input.write,
          nowDate(),
        ),
      ),

    replaceFields: (tenantId, id, input) =>
      apply(replaceFieldsUpdate(tenantId, id, input, nowDate())),

    setField(tenantId, id, input) {
      const now = nowDate();
      return applyFirst(
        setFieldUpdates(
          ownedFilter(tenantId, id, input.userId),
          input.path,
          jsonValue(input.value),
          jsonValue(input.confidence),
          writeEntry(input.write, now),
          now,
        ),
      );
    },

    removeField(tenantId, id, input) {
      const now = nowDate();
      return apply(
        removeFieldUpdate(
          ownedFilter(tenantId, id, input.userId),
          input.path,
          writeEntry(input.write, now),
          now,
        ),
      );
    },

    complete: (tenantId, id, input) =>
      apply(completeUpdate(tenantId, id, input.userId, input.write, nowDate())),

    setStatus: (tenantId, id, input) =>
      apply(
        extractionSetUpdate(
          tenantId,
          id,
          input.userId,
          input.status === undefined
            ? { error: input.error }
            : { status: input.status, error: input.error },
          null,
          nowDate(),
        ),
      ),

    async addUsage(tenantId, id, usage) {
      const spec = usageUpdate(tenantId, id, usage);
      await documentExtractions.updateOne(spec.filter, spec.update).exec();
    },

    async listWrites(tenantId, id, options = {}) {
      const after = Math.max(0, Math.floor(options.afterSeq ?? 0));
      const q = writesQuery(tenantId, id, after);
      const doc = await documentExtractions.findOne(q.filter, q.projection).lean().exec();
      return (doc?.writes ?? []).map((entry, index) => ({
        tenantId,
        extractionId: id,
        seq: after + index + 1,
        tool: entry.tool,
        input: JSON.parse(entry.input) as unknown,
        createdAt: iso(entry.createdAt),
      }));
    },
  };
}
