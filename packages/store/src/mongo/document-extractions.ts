// Documents and their extractions (issue 19). Every tool write is one findOneAndUpdate of the
// extraction's document: the change by path (field-updates.ts) and the $push of its history
// entry together, so they succeed or fail as one.
import type {
  DocumentExtraction,
  DocumentExtractionRepository,
  DocumentRecord,
  DocumentRepository,
  DocumentSummary,
  WriteRecord,
} from '../port';
import { newDocumentExtractionRecord, newDocumentRecord } from '../record-defaults';
import { clampLimit, encodeCursor, nowIso } from '../shared';
import type { DocumentExtractionDoc, ExtractionWriteDoc, SourceDocumentDoc } from './documents';
import { removeFieldUpdate, setFieldUpdates, type PathUpdate } from './field-updates';
import type { MongoModels } from './schemas';
import { fromJson, iso, jsonValue, nowDate, olderThanCursor, toDate } from './util';

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
  createdAt: iso(doc.createdAt),
});

const owned = (tenantId: string, id: string, userId?: string): Record<string, unknown> =>
  userId === undefined ? { tenantId, id } : { tenantId, id, userId };

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
        .findOne(owned(tenantId, id, options.userId))
        .lean()
        .exec();
      return doc
        ? ({ ...toSummary(doc), pages: fromJson<DocumentRecord['pages']>(doc.pages) } as const)
        : null;
    },
    async list(tenantId, options = {}) {
      const filter: Record<string, unknown> = { tenantId };
      if (options.userId !== undefined) filter.userId = options.userId;
      const docs = await documents
        .find(filter, { pages: 0 })
        .sort({ createdAt: -1, id: -1 })
        .limit(clampLimit(options.limit, 50))
        .lean()
        .exec();
      return docs.map(toSummary);
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

/** Reads never carry the history along. */
const WITHOUT_WRITES = { writes: 0 } as const;

const entryOf = (write: WriteRecord, at: Date): ExtractionWriteDoc => ({
  tool: write.tool,
  input: JSON.stringify(write.input ?? null),
  createdAt: at,
});

export function mongoDocumentExtractions({
  documentExtractions,
}: MongoModels): DocumentExtractionRepository {
  async function apply(update: PathUpdate): Promise<DocumentExtraction | null> {
    const doc = await documentExtractions
      .findOneAndUpdate(update.filter, update.update, {
        returnDocument: 'after',
        projection: WITHOUT_WRITES,
        // The array-element removal is an update pipeline (field-updates.ts).
        updatePipeline: Array.isArray(update.update),
      })
      .lean()
      .exec();
    return doc ? toExtraction(doc) : null;
  }

  /** Applies the first update whose guard matches; null when none does. */
  async function applyFirst(updates: PathUpdate[]): Promise<DocumentExtraction | null> {
    for (const update of updates) {
      const done = await apply(update);
      if (done) return done;
    }
    return null;
  }

  const write = (
    tenantId: string,
    id: string,
    userId: string,
    set: Record<string, unknown>,
    record: WriteRecord | null,
    guard: Record<string, unknown> = {},
  ): Promise<DocumentExtraction | null> => {
    const now = nowDate();
    return apply({
      filter: { ...owned(tenantId, id, userId), ...guard },
      update: {
        $set: { ...set, updatedAt: now },
        ...(record ? { $push: { writes: entryOf(record, now) } } : {}),
      },
    });
  };

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
        .findOne(owned(tenantId, id, options.userId), WITHOUT_WRITES)
        .lean()
        .exec();
      return doc ? toExtraction(doc) : null;
    },

    async list(tenantId, options = {}) {
      const filter: Record<string, unknown> = { tenantId, ...olderThanCursor(options.cursor) };
      if (options.userId !== undefined) filter.userId = options.userId;
      if (options.documentId !== undefined) filter.documentId = options.documentId;
      const limit = clampLimit(options.limit, 20);
      const docs = await documentExtractions
        .find(filter, WITHOUT_WRITES)
        .sort({ createdAt: -1, id: -1 })
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
      write(tenantId, id, input.userId, { documentType: input.documentType }, input.write),

    replaceFields: (tenantId, id, input) =>
      write(
        tenantId,
        id,
        input.userId,
        { fields: jsonValue(input.fields), confidences: jsonValue(input.confidences) },
        input.write,
      ),

    setField(tenantId, id, input) {
      const now = nowDate();
      return applyFirst(
        setFieldUpdates(
          owned(tenantId, id, input.userId),
          input.path,
          jsonValue(input.value),
          jsonValue(input.confidence),
          entryOf(input.write, now),
          now,
        ),
      );
    },

    removeField(tenantId, id, input) {
      const now = nowDate();
      return apply(
        removeFieldUpdate(
          owned(tenantId, id, input.userId),
          input.path,
          entryOf(input.write, now),
          now,
        ),
      );
    },

    complete: (tenantId, id, input) =>
      // An empty object is stored as {} (minimize is off): "has a field" is "is not {}".
      write(tenantId, id, input.userId, { status: 'completed', error: null }, input.write, {
        fields: { $ne: {} },
      }),

    setStatus: (tenantId, id, input) =>
      write(
        tenantId,
        id,
        input.userId,
        input.status === undefined
          ? { error: input.error }
          : { status: input.status, error: input.error },
        null,
      ),

    async addUsage(tenantId, id, usage) {
      await documentExtractions
        .updateOne(
          { tenantId, id },
          {
            $inc: {
              costMicroUsd: Math.round(usage.costMicroUsd),
              tokens: Math.round(usage.tokens),
            },
          },
        )
        .exec();
    },

    async listWrites(tenantId, id) {
      const doc = await documentExtractions.findOne({ tenantId, id }, { writes: 1 }).lean().exec();
      return (doc?.writes ?? []).map((entry, index) => ({
        tenantId,
        extractionId: id,
        seq: index + 1,
        tool: entry.tool,
        input: JSON.parse(entry.input) as unknown,
        createdAt: iso(entry.createdAt),
      }));
    },
  };
}
