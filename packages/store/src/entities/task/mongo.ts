// Tasks. `update` is one findOneAndUpdate whose filter carries the expected version, so
// `ifVersion` is a real compare-and-set: of two concurrent requests, exactly one advances it.
//
// Task actions: `insertMany` is one insertMany call (one batched write), because the agent
// flushes a chain's actions together.
import { emptyTaskMetrics } from '@tandem/contracts';
import type { MongoModels } from '../../mongo/schemas';
import { fromJson, iso, jsonValue, nowDate, orNull, toDate } from '../../mongo/util';
import { VersionConflictError } from '../../port';
import { clampLimit, encodeCursor, nowIso } from '../../shared';
import {
  actionFilter,
  actionsByTaskQuery,
  actionsByTasksQuery,
  actionUpdate,
  activeTaskQuery,
  expireStaleUpdate,
  lastActionQuery,
  taskFilter,
  taskListQuery,
  taskUpdate,
} from './mongo-queries';
import type { TaskActionDoc, TaskDoc } from './mongo-schema';
import {
  newTaskActionRecord,
  newTaskRecord,
  type Task,
  type TaskAction,
  type TaskActionRepository,
  type TaskRepository,
} from './record';

const toTask = (doc: TaskDoc): Task => ({
  id: doc.id,
  tenantId: doc.tenantId,
  userId: doc.userId,
  sessionId: orNull(doc.sessionId),
  url: doc.url,
  query: doc.query,
  status: doc.status,
  complexity: orNull(doc.complexity),
  plan: fromJson<Task['plan']>(doc.plan),
  hierarchicalPlan: fromJson<Task['hierarchicalPlan']>(doc.hierarchicalPlan),
  currentStepIndex: doc.currentStepIndex,
  corrections: fromJson<Task['corrections'] | null>(doc.corrections) ?? [],
  metrics: fromJson<Task['metrics'] | null>(doc.metrics) ?? emptyTaskMetrics(),
  lastChain: fromJson<Task['lastChain']>(doc.lastChain),
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
const toTaskDoc = (task: Task): TaskDoc => ({
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
      const doc = toTaskDoc(newTaskRecord(tenantId, input, nowIso()));
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

const toTaskAction = (doc: TaskActionDoc): TaskAction => ({
  id: doc.id,
  tenantId: doc.tenantId,
  taskId: doc.taskId,
  stepIndex: doc.stepIndex,
  thought: doc.thought,
  action: doc.action,
  expectedOutcome: fromJson<TaskAction['expectedOutcome']>(doc.expectedOutcome),
  beforeState: fromJson<TaskAction['beforeState']>(doc.beforeState),
  verification: fromJson<TaskAction['verification']>(doc.verification),
  status: doc.status,
  metrics: fromJson<TaskAction['metrics']>(doc.metrics),
  createdAt: iso(doc.createdAt),
});

/** The stored form of an action: JSON-ish parts through jsonValue, the time as a date. */
const toActionDoc = (action: TaskAction): TaskActionDoc => ({
  ...action,
  expectedOutcome: jsonValue(action.expectedOutcome),
  beforeState: jsonValue(action.beforeState),
  verification: jsonValue(action.verification),
  metrics: jsonValue(action.metrics),
  createdAt: toDate(action.createdAt),
});

export function mongoTaskActions({ taskActions }: MongoModels): TaskActionRepository {
  return {
    async insert(tenantId, input) {
      const doc = toActionDoc(newTaskActionRecord(tenantId, input, nowIso()));
      await taskActions.create(doc);
      return toTaskAction(doc);
    },
    async insertMany(tenantId, inputs) {
      if (inputs.length === 0) return [];
      const now = nowIso();
      const docs = inputs.map((input) => toActionDoc(newTaskActionRecord(tenantId, input, now)));
      // ordered: a failure stops at the failing document instead of writing around it.
      await taskActions.insertMany(docs, { ordered: true });
      return docs.map(toTaskAction);
    },
    async get(tenantId, id) {
      const doc = await taskActions.findOne(actionFilter(tenantId, id)).lean().exec();
      return doc ? toTaskAction(doc) : null;
    },
    async listByTask(tenantId, taskId) {
      const query = actionsByTaskQuery(tenantId, taskId);
      const docs = await taskActions.find(query.filter).sort(query.sort).lean().exec();
      return docs.map(toTaskAction);
    },
    async getLast(tenantId, taskId) {
      const query = lastActionQuery(tenantId, taskId);
      const doc = await taskActions.findOne(query.filter).sort(query.sort).lean().exec();
      return doc ? toTaskAction(doc) : null;
    },
    async listByTasks(tenantId, taskIds) {
      if (taskIds.length === 0) return [];
      const query = actionsByTasksQuery(tenantId, taskIds);
      const docs = await taskActions.find(query.filter).sort(query.sort).lean().exec();
      return docs.map(toTaskAction);
    },
    async update(tenantId, id, patch) {
      const set: Record<string, unknown> = {};
      if (patch.verification !== undefined) set.verification = jsonValue(patch.verification);
      if (patch.status !== undefined) set.status = patch.status;
      if (patch.metrics !== undefined) set.metrics = jsonValue(patch.metrics);
      if (patch.expectedOutcome !== undefined) {
        set.expectedOutcome = jsonValue(patch.expectedOutcome);
      }
      const { filter, update } = actionUpdate(tenantId, id, set);
      const doc =
        Object.keys(set).length === 0
          ? await taskActions.findOne(filter).lean().exec()
          : await taskActions
              .findOneAndUpdate(filter, update, { returnDocument: 'after' })
              .lean()
              .exec();
      return doc ? toTaskAction(doc) : null;
    },
  };
}
