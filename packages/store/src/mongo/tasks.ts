// Tasks. `update` is one findOneAndUpdate whose filter carries the expected version, so
// `ifVersion` is a real compare-and-set: of two concurrent requests, exactly one advances it.
import {
  emptyTaskMetrics,
  type CorrectionRecord,
  type HierarchicalPlan,
  type Plan,
  type StoredChain,
  type TaskMetrics,
} from '@tandem/contracts';
import { VersionConflictError, type Task, type TaskRepository } from '../port';
import { newTaskRecord } from '../record-defaults';
import { clampLimit, encodeCursor, nowIso } from '../shared';
import type { TaskDoc } from './documents';
import type { MongoModels } from './schemas';
import {
  activeTaskQuery,
  expireStaleUpdate,
  taskFilter,
  taskListQuery,
  taskUpdate,
} from './queries/tasks';
import { fromJson, iso, jsonValue, nowDate, orNull, toDate } from './util';

const toTask = (doc: TaskDoc): Task => ({
  id: doc.id,
  tenantId: doc.tenantId,
  userId: doc.userId,
  sessionId: orNull(doc.sessionId),
  url: doc.url,
  query: doc.query,
  status: doc.status,
  complexity: orNull(doc.complexity),
  plan: fromJson<Plan | null>(doc.plan),
  hierarchicalPlan: fromJson<HierarchicalPlan | null>(doc.hierarchicalPlan),
  currentStepIndex: doc.currentStepIndex,
  corrections: fromJson<CorrectionRecord[] | null>(doc.corrections) ?? [],
  metrics: fromJson<TaskMetrics | null>(doc.metrics) ?? emptyTaskMetrics(),
  lastChain: fromJson<StoredChain | null>(doc.lastChain),
  webSearchResult: fromJson<unknown>(doc.webSearchResult),
  result: orNull(doc.result),
  collectLimit: orNull(doc.collectLimit),
  consecutiveFailures: doc.consecutiveFailures,
  consecutiveSuccessWithoutTaskComplete: doc.consecutiveSuccessWithoutTaskComplete,
  version: doc.version,
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});

/** The stored form of a task: JSON-ish fields through jsonValue, times as dates. */
const toDoc = (task: Task): TaskDoc => ({
  ...task,
  plan: jsonValue(task.plan),
  hierarchicalPlan: jsonValue(task.hierarchicalPlan),
  corrections: jsonValue(task.corrections),
  metrics: jsonValue(task.metrics),
  lastChain: jsonValue(task.lastChain),
  webSearchResult: jsonValue(task.webSearchResult),
  createdAt: toDate(task.createdAt),
  updatedAt: toDate(task.updatedAt),
});

export function mongoTasks({ tasks }: MongoModels): TaskRepository {
  const get = async (tenantId: string, id: string): Promise<Task | null> => {
    const doc = await tasks.findOne(taskFilter(tenantId, id)).lean().exec();
    return doc ? toTask(doc) : null;
  };

  return {
    async create(tenantId, input) {
      const doc = toDoc(newTaskRecord(tenantId, input, nowIso()));
      await tasks.create(doc);
      return toTask(doc);
    },

    get,

    async update(tenantId, id, patch, options = {}) {
      const { filter, update } = taskUpdate(tenantId, id, patch, options.ifVersion, nowDate());
      const doc = await tasks
        .findOneAndUpdate(filter, update, { returnDocument: 'after' })
        .lean()
        .exec();
      if (doc) return toTask(doc);
      if (
        options.ifVersion !== undefined &&
        (await tasks.exists(taskFilter(tenantId, id)).exec())
      ) {
        throw new VersionConflictError(`task ${id} is not at version ${options.ifVersion}`);
      }
      return null;
    },

    async list(tenantId, options = {}) {
      const limit = clampLimit(options.limit, 50);
      if (options.status !== undefined && options.status.length === 0) {
        return { items: [], nextCursor: null };
      }
      const query = taskListQuery(tenantId, options, limit);
      const docs = await tasks
        .find(query.filter)
        .sort(query.sort)
        .limit(query.limit ?? limit + 1)
        .lean()
        .exec();
      const items = docs.slice(0, limit).map(toTask);
      const last = items[items.length - 1];
      return {
        items,
        nextCursor: docs.length > limit && last ? encodeCursor([last.createdAt, last.id]) : null,
      };
    },

    async findActive(tenantId, input) {
      const query = activeTaskQuery(tenantId, input);
      const doc = await tasks.findOne(query.filter).sort(query.sort).lean().exec();
      return doc ? toTask(doc) : null;
    },

    async expireStale(tenantId, input) {
      const { filter, update } = expireStaleUpdate(tenantId, input, nowDate());
      const result = await tasks.updateMany(filter, update).exec();
      return result.modifiedCount;
    },
  };
}
