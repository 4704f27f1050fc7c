// Extractions (one structured-data result per request) and the learned per-page strategies
// (selectors) that make the next extraction of the same page shape cheap.
import type {
  Extraction,
  ExtractionRepository,
  ExtractionStrategy,
  ExtractionStrategyRepository,
} from '../port';
import { newExtractionRecord, newExtractionStrategyRecord } from '../record-defaults';
import { clampLimit, nowIso } from '../shared';
import type { ExtractionDoc, ExtractionStrategyDoc } from './documents';
import type { MongoModels } from './schemas';
import { fromJson, iso, jsonValue, nowDate, orNull, retryOnDuplicate, toDate } from './util';

const toExtraction = (doc: ExtractionDoc): Extraction => ({
  id: doc.id,
  tenantId: doc.tenantId,
  taskId: orNull(doc.taskId),
  url: doc.url,
  schema: fromJson<Record<string, unknown>>(doc.schema),
  data: fromJson<unknown>(doc.data),
  status: doc.status,
  error: orNull(doc.error),
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});

export function mongoExtractions({ extractions }: MongoModels): ExtractionRepository {
  return {
    async create(tenantId, input) {
      const extraction = newExtractionRecord(tenantId, input, nowIso());
      const doc: ExtractionDoc = {
        ...extraction,
        schema: jsonValue(extraction.schema),
        data: jsonValue(extraction.data),
        createdAt: toDate(extraction.createdAt),
        updatedAt: toDate(extraction.updatedAt),
      };
      await extractions.create(doc);
      return toExtraction(doc);
    },
    async get(tenantId, id) {
      const doc = await extractions.findOne({ tenantId, id }).lean().exec();
      return doc ? toExtraction(doc) : null;
    },
    async list(tenantId, options = {}) {
      const filter: Record<string, unknown> = { tenantId };
      if (options.taskId !== undefined) filter.taskId = options.taskId;
      const docs = await extractions
        .find(filter)
        .sort({ createdAt: -1, id: -1 })
        .limit(clampLimit(options.limit, 50))
        .lean()
        .exec();
      return docs.map(toExtraction);
    },
    async update(tenantId, id, patch) {
      const set: Record<string, unknown> = { updatedAt: nowDate() };
      if (patch.data !== undefined) set.data = jsonValue(patch.data);
      if (patch.status !== undefined) set.status = patch.status;
      if (patch.error !== undefined) set.error = patch.error;
      const doc = await extractions
        .findOneAndUpdate({ tenantId, id }, { $set: set }, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toExtraction(doc) : null;
    },
  };
}

const toStrategy = (doc: ExtractionStrategyDoc): ExtractionStrategy => ({
  id: doc.id,
  tenantId: doc.tenantId,
  domain: doc.domain,
  pathPattern: doc.pathPattern,
  schemaHash: doc.schemaHash,
  selectors: fromJson<Record<string, string>>(doc.selectors),
  successCount: doc.successCount,
  failureCount: doc.failureCount,
  lastUsed: iso(doc.lastUsed),
  createdAt: iso(doc.createdAt),
});

const at = (now: string | undefined): Date => (now === undefined ? nowDate() : toDate(now));

export function mongoExtractionStrategies({
  extractionStrategies,
}: MongoModels): ExtractionStrategyRepository {
  return {
    async upsert(tenantId, input, now) {
      const strategy = newExtractionStrategyRecord(tenantId, input, iso(at(now)));
      // Relearned selectors replace the old ones; the counters keep the strategy's history.
      // The filter's equalities (tenant, domain, path, schema hash) are written on insert too.
      const doc = await retryOnDuplicate(() =>
        extractionStrategies
          .findOneAndUpdate(
            {
              tenantId: strategy.tenantId,
              domain: strategy.domain,
              pathPattern: strategy.pathPattern,
              schemaHash: strategy.schemaHash,
            },
            {
              $set: {
                selectors: jsonValue(strategy.selectors),
                lastUsed: toDate(strategy.lastUsed),
              },
              $setOnInsert: {
                id: strategy.id,
                successCount: strategy.successCount,
                failureCount: strategy.failureCount,
                createdAt: toDate(strategy.createdAt),
              },
            },
            { upsert: true, returnDocument: 'after' },
          )
          .lean()
          .exec(),
      );
      if (doc === null) throw new Error('mongo: extraction strategy upsert returned nothing');
      return toStrategy(doc);
    },
    async find(tenantId, input) {
      const doc = await extractionStrategies
        .findOne({
          tenantId,
          domain: input.domain,
          pathPattern: input.pathPattern,
          schemaHash: input.schemaHash,
        })
        .lean()
        .exec();
      return doc ? toStrategy(doc) : null;
    },
    async recordResult(tenantId, id, success, now) {
      const doc = await extractionStrategies
        .findOneAndUpdate(
          { tenantId, id },
          {
            $inc: success ? { successCount: 1 } : { failureCount: 1 },
            $set: { lastUsed: at(now) },
          },
          { returnDocument: 'after' },
        )
        .lean()
        .exec();
      return doc ? toStrategy(doc) : null;
    },
    async delete(tenantId, id) {
      const result = await extractionStrategies.deleteOne({ tenantId, id }).exec();
      return result.deletedCount > 0;
    },
  };
}
