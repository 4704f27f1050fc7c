// Extraction results (docs/specs.md, "extraction overhaul"): one document per extraction of one
// page. A task's documents with the same extractionId are what the server merges into one
// aggregate, so they are read oldest first, whole (data can be hundreds of KB of JSON, far below
// the 16 MB document limit).
import type { ContentStats, ExtractionError } from '@tandem/contracts';
import {
  newExtractionResultRecord,
  type ExtractionResultRecord,
  type ExtractionResultRepository,
} from './record';
import { clampLimit, nowIso } from '../../shared';
import type { ExtractionResultDoc } from './mongo-schema';
import { byIdFilter, resultsByTaskQuery } from './mongo-queries';
import type { MongoModels } from '../../mongo/schemas';
import { fromJson, iso, jsonValue, orNull, toDate } from '../../mongo/util';

const toResult = (doc: ExtractionResultDoc): ExtractionResultRecord => ({
  id: doc.id,
  tenantId: doc.tenantId,
  taskId: orNull(doc.taskId),
  extractionId: orNull(doc.extractionId),
  query: doc.query,
  sourceUrl: orNull(doc.sourceUrl),
  data: fromJson<unknown>(doc.data),
  schemaUsed: fromJson<Record<string, unknown> | null>(doc.schemaUsed),
  isPartial: doc.isPartial,
  method: doc.method,
  contentStats: fromJson<ContentStats>(doc.contentStats),
  warnings: fromJson<string[]>(doc.warnings),
  errors: fromJson<ExtractionError[]>(doc.extractionErrors),
  createdAt: iso(doc.createdAt),
});

export function mongoExtractionResults({
  extractionResults,
}: MongoModels): ExtractionResultRepository {
  return {
    async create(tenantId, input, now) {
      const record = newExtractionResultRecord(
        tenantId,
        input,
        now === undefined ? nowIso() : iso(toDate(now)),
      );
      const { errors, ...rest } = record;
      const doc: ExtractionResultDoc = {
        ...rest,
        data: jsonValue(record.data),
        schemaUsed: jsonValue(record.schemaUsed),
        contentStats: jsonValue(record.contentStats),
        warnings: jsonValue(record.warnings),
        extractionErrors: jsonValue(errors),
        createdAt: toDate(record.createdAt),
      };
      await extractionResults.create(doc);
      return toResult(doc);
    },
    async get(tenantId, id) {
      const doc = await extractionResults.findOne(byIdFilter(tenantId, id)).lean().exec();
      return doc ? toResult(doc) : null;
    },
    async listByTask(tenantId, taskId, options = {}) {
      const limit = clampLimit(options.limit, 1000, 10_000);
      const query = resultsByTaskQuery(tenantId, taskId, options, limit);
      const docs = await extractionResults
        .find(query.filter)
        .sort(query.sort)
        .limit(limit)
        .lean()
        .exec();
      return docs.map(toResult);
    },
  };
}
