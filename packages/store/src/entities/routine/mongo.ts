// Routines, one document per version. The next version's number is read, then inserted under
// the unique (tenant, site, template, version) index: a concurrent writer that took the number
// first makes the insert fail, and it is retried once with the number after it.
import { encodeCursor, clampLimit, nowIso } from '../../shared';
import type { MongoModels } from '../../mongo/schemas';
import { fromJson, iso, jsonValue, nowDate, retryOnDuplicate, toDate } from '../../mongo/util';
import type { RoutineDoc } from './mongo-schema';
import {
  latestQuery,
  routineCountsUpdate,
  routineFilter,
  routineListQuery,
  routinePatchUpdate,
  versionsQuery,
} from './mongo-queries';
import {
  newRoutineRecord,
  nextVersionOf,
  type NewRoutine,
  type Routine,
  type RoutineRepository,
} from './record';

const toRoutine = (doc: RoutineDoc): Routine => ({
  id: doc.id,
  tenantId: doc.tenantId,
  site: doc.site,
  goalTemplate: doc.goalTemplate,
  name: doc.name,
  parameters: fromJson<Routine['parameters']>(doc.parameters),
  steps: fromJson<Routine['steps']>(doc.steps),
  version: doc.version,
  sourceTaskId: doc.sourceTaskId ?? null,
  enabled: doc.enabled,
  runs: doc.runs,
  heals: doc.heals,
  tokensSaved: doc.tokensSaved,
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});

export function mongoRoutines({ routines }: MongoModels): RoutineRepository {
  const get = async (tenantId: string, id: string): Promise<Routine | null> => {
    const doc = await routines.findOne(routineFilter(tenantId, id)).lean().exec();
    return doc ? toRoutine(doc) : null;
  };

  const insertNext = (tenantId: string, input: NewRoutine): Promise<Routine> => {
    const routine = newRoutineRecord(tenantId, input, 0, nowIso());
    return retryOnDuplicate(async () => {
      const q = versionsQuery(tenantId, routine);
      const latest = await routines
        .findOne(q.filter)
        .sort(q.sort ?? {})
        .lean()
        .exec();
      const stored = { ...routine, version: (latest?.version ?? 0) + 1 };
      await routines.create({
        ...stored,
        parameters: jsonValue(stored.parameters),
        steps: jsonValue(stored.steps),
        createdAt: toDate(stored.createdAt),
        updatedAt: toDate(stored.updatedAt),
      });
      return stored;
    });
  };

  return {
    create: insertNext,
    get,

    async findLatest(tenantId, input, options = {}) {
      const q = latestQuery(tenantId, input, options.includeDisabled === true);
      const doc = await routines
        .findOne(q.filter)
        .sort(q.sort ?? {})
        .lean()
        .exec();
      return doc ? toRoutine(doc) : null;
    },

    async versions(tenantId, id) {
      const one = await get(tenantId, id);
      if (!one) return [];
      const q = versionsQuery(tenantId, one);
      const docs = await routines
        .find(q.filter)
        .sort(q.sort ?? {})
        .lean()
        .exec();
      return docs.map(toRoutine);
    },

    async list(tenantId, options = {}) {
      const limit = clampLimit(options.limit, 50);
      const q = routineListQuery(tenantId, options, limit);
      const docs = await routines
        .find(q.filter)
        .sort(q.sort ?? {})
        .limit(q.limit ?? limit + 1)
        .lean()
        .exec();
      const items = docs.slice(0, limit).map(toRoutine);
      const last = items[items.length - 1];
      return {
        items,
        nextCursor: docs.length > limit && last ? encodeCursor([last.createdAt, last.id]) : null,
      };
    },

    async update(tenantId, id, patch) {
      const spec = routinePatchUpdate(tenantId, id, patch, nowDate());
      const doc = await routines
        .findOneAndUpdate(spec.filter, spec.update, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toRoutine(doc) : null;
    },

    async addCounts(tenantId, id, counts) {
      const spec = routineCountsUpdate(tenantId, id, counts, nowDate());
      const doc = await routines
        .findOneAndUpdate(spec.filter, spec.update, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toRoutine(doc) : null;
    },

    async addVersion(tenantId, id, input) {
      const base = await get(tenantId, id);
      if (!base) return null;
      return insertNext(tenantId, nextVersionOf(base, input));
    },

    async delete(tenantId, id) {
      const result = await routines.deleteOne(routineFilter(tenantId, id)).exec();
      return result.deletedCount > 0;
    },
  };
}
