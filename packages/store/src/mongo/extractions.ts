// Extractions (one structured-data result per request) and the learned strategies (spec 001:
// per URL glob, schema and selector, with an optional replay recipe) that make the next
// extraction of the same page shape cheap.
import type {
  Extraction,
  ExtractionRepository,
  ExtractionStrategy,
  ExtractionStrategyRepository,
  NewExtractionStrategy,
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
  urlPattern: doc.urlPattern,
  cssSelector: orNull(doc.cssSelector),
  outputSchema: fromJson<Record<string, unknown>>(doc.outputSchema),
  schemaHash: doc.schemaHash,
  queryTemplate: doc.queryTemplate,
  replay: fromJson<Record<string, unknown> | null>(doc.replay),
  successCount: doc.successCount,
  failureCount: doc.failureCount,
  lastUsed: iso(doc.lastUsed),
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});

const at = (now: string | undefined): Date => (now === undefined ? nowDate() : toDate(now));

async function upsertStrategy(
  extractionStrategies: MongoModels['extractionStrategies'],
  tenantId: string,
  input: NewExtractionStrategy,
  now: string | undefined,
): Promise<ExtractionStrategy> {
  const strategy = newExtractionStrategyRecord(tenantId, input, iso(at(now)));
  const when = toDate(strategy.lastUsed);
  // A relearned strategy replaces what it extracts and how; the counters and the id keep
  // its history. An upsert that says nothing about replay keeps the recipe learned so far.
  const set: Record<string, unknown> = {
    domain: strategy.domain,
    outputSchema: jsonValue(strategy.outputSchema),
    queryTemplate: strategy.queryTemplate,
    lastUsed: when,
    updatedAt: when,
  };
  const setOnInsert: Record<string, unknown> = {
    id: strategy.id,
    successCount: strategy.successCount,
    failureCount: strategy.failureCount,
    createdAt: toDate(strategy.createdAt),
  };
  if (input.replay === undefined) setOnInsert.replay = null;
  else set.replay = jsonValue(strategy.replay);
  // The filter's equalities (tenant, url pattern, schema hash, selector, null included) are
  // written on insert too (a missing selector would still read and index as null).
  const doc = await retryOnDuplicate(() =>
    extractionStrategies
      .findOneAndUpdate(
        {
          tenantId: strategy.tenantId,
          urlPattern: strategy.urlPattern,
          schemaHash: strategy.schemaHash,
          cssSelector: strategy.cssSelector,
        },
        { $set: set, $setOnInsert: setOnInsert },
        { upsert: true, returnDocument: 'after' },
      )
      .lean()
      .exec(),
  );
  if (doc === null) throw new Error('mongo: extraction strategy upsert returned nothing');
  return toStrategy(doc);
}

export function mongoExtractionStrategies({
  extractionStrategies,
}: MongoModels): ExtractionStrategyRepository {
  return {
    upsert: (tenantId, input, now) => upsertStrategy(extractionStrategies, tenantId, input, now),
    async get(tenantId, id) {
      const doc = await extractionStrategies.findOne({ tenantId, id }).lean().exec();
      return doc ? toStrategy(doc) : null;
    },
    async listByDomain(tenantId, domain, options = {}) {
      const docs = await extractionStrategies
        .find({ tenantId, domain })
        .sort({ lastUsed: -1, id: -1 })
        .limit(clampLimit(options.limit, 50))
        .lean()
        .exec();
      return docs.map(toStrategy);
    },
    async recordResult(tenantId, id, success, now) {
      const when = at(now);
      const doc = await extractionStrategies
        .findOneAndUpdate(
          { tenantId, id },
          {
            $inc: success ? { successCount: 1 } : { failureCount: 1 },
            $set: { lastUsed: when, updatedAt: when },
          },
          { returnDocument: 'after' },
        )
        .lean()
        .exec();
      return doc ? toStrategy(doc) : null;
    },
    async setReplay(tenantId, id, replay, now) {
      const doc = await extractionStrategies
        .findOneAndUpdate(
          { tenantId, id },
          { $set: { replay: jsonValue(replay), updatedAt: at(now) } },
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
