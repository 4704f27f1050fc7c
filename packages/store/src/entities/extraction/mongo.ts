// Extractions (one structured-data result per request) and the learned strategies (docs/specs.md,
// "the strategy cache": per URL glob, schema and selector, with an optional replay recipe) that
// make the next extraction of the same page shape cheap.
import {
  newExtractionRecord,
  newExtractionStrategyRecord,
  type Extraction,
  type ExtractionRepository,
  type ExtractionStrategy,
  type ExtractionStrategyRepository,
  type NewExtractionStrategy,
} from './record';
import { clampLimit, nowIso } from '../../shared';
import type { ExtractionDoc, ExtractionStrategyDoc } from './mongo-schema';
import {
  byIdFilter,
  extractionsQuery,
  extractionUpdate,
  strategiesByDomainQuery,
  strategyAddRecipe,
  strategyCountRecipe,
  strategyReplayUpdate,
  strategyResultUpdate,
  strategyRetireRecipe,
  strategyUpsert,
  strategyUrlPatternUpdate,
} from './mongo-queries';
import type { MongoModels } from '../../mongo/schemas';
import {
  fromJson,
  isMongoDuplicateKey,
  iso,
  jsonValue,
  nowDate,
  orNull,
  retryOnDuplicate,
  toDate,
} from '../../mongo/util';

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
      const doc = await extractions.findOne(byIdFilter(tenantId, id)).lean().exec();
      return doc ? toExtraction(doc) : null;
    },
    async list(tenantId, options = {}) {
      const limit = clampLimit(options.limit, 50);
      const query = extractionsQuery(tenantId, options, limit);
      const docs = await extractions.find(query.filter).sort(query.sort).limit(limit).lean().exec();
      return docs.map(toExtraction);
    },
    async update(tenantId, id, patch) {
      const { filter, update } = extractionUpdate(tenantId, id, patch, nowDate());
      const doc = await extractions
        .findOneAndUpdate(filter, update, { returnDocument: 'after' })
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
  const { filter, update } = strategyUpsert(
    strategy,
    input.replay !== undefined,
    toDate(strategy.lastUsed),
  );
  const doc = await retryOnDuplicate(() =>
    extractionStrategies
      .findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' })
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
      const doc = await extractionStrategies.findOne(byIdFilter(tenantId, id)).lean().exec();
      return doc ? toStrategy(doc) : null;
    },
    async listByDomain(tenantId, domain, options = {}) {
      const limit = clampLimit(options.limit, 50);
      const query = strategiesByDomainQuery(tenantId, domain, limit);
      const docs = await extractionStrategies
        .find(query.filter)
        .sort(query.sort)
        .limit(limit)
        .lean()
        .exec();
      return docs.map(toStrategy);
    },
    async recordResult(tenantId, id, success, now) {
      const { filter, update } = strategyResultUpdate(tenantId, id, success, at(now));
      const doc = await extractionStrategies
        .findOneAndUpdate(filter, update, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toStrategy(doc) : null;
    },
    async setReplay(tenantId, id, replay, now) {
      const { filter, update } = strategyReplayUpdate(tenantId, id, replay, at(now));
      const doc = await extractionStrategies
        .findOneAndUpdate(filter, update, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toStrategy(doc) : null;
    },
    async addRecipe(tenantId, id, entry, keep, now) {
      const { filter, update } = strategyAddRecipe(tenantId, id, entry, keep, at(now));
      // A pipeline update: mongoose passes an array through as one (updatePipeline allows it).
      const doc = await extractionStrategies
        .findOneAndUpdate(filter, update, { returnDocument: 'after', updatePipeline: true })
        .lean()
        .exec();
      return doc ? toStrategy(doc) : null;
    },
    async countRecipeReplay(tenantId, id, recipeId, now) {
      const { filter, update } = strategyCountRecipe(tenantId, id, recipeId, at(now));
      const doc = await extractionStrategies
        .findOneAndUpdate(filter, update, { returnDocument: 'after', updatePipeline: true })
        .lean()
        .exec();
      return doc ? toStrategy(doc) : null;
    },
    async retireRecipe(tenantId, id, recipeId, now) {
      const { filter, update } = strategyRetireRecipe(tenantId, id, recipeId, at(now));
      const doc = await extractionStrategies
        .findOneAndUpdate(filter, update, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toStrategy(doc) : null;
    },
    async setUrlPattern(tenantId, id, change, now) {
      const { filter, update } = strategyUrlPatternUpdate(tenantId, id, change, at(now));
      try {
        const doc = await extractionStrategies
          .findOneAndUpdate(filter, update, { returnDocument: 'after' })
          .lean()
          .exec();
        return doc ? toStrategy(doc) : null;
      } catch (error) {
        // The unique key: another strategy of this schema and selector has that pattern.
        if (isMongoDuplicateKey(error)) return null;
        throw error;
      }
    },
    async delete(tenantId, id) {
      const result = await extractionStrategies.deleteOne(byIdFilter(tenantId, id)).exec();
      return result.deletedCount > 0;
    },
  };
}
