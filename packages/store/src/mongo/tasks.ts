// Tasks. `update` is one findOneAndUpdate whose filter carries the expected version, so
// `ifVersion` is a real compare-and-set: of two concurrent requests, exactly one advances it.
import {
  emptyTaskMetrics,
  type CorrectionRecord,
  type HierarchicalPlan,
  type Plan,
  type StoredChain,
  type TaskMetrics,
  type TaskStatus,
} from '@tandem/contracts';
import { VersionConflictError, type Task, type TaskPatch, type TaskRepository } from '../port';
import { newTaskRecord } from '../record-defaults';
import { clampLimit, encodeCursor, nowIso } from '../shared';
import type { TaskDoc } from './documents';
import type { MongoModels } from './schemas';
import { fromJson, iso, jsonValue, nowDate, olderThanCursor, orNull, toDate } from './util';

/**
 * Statuses a task can still advance from (findActive / expireStale look at these): a task
 * paused on a question is live too, and its answer continues it.
 */
const LIVE_STATUSES: TaskStatus[] = ['active', 'executing', 'needs_user_input'];

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

/** How each patchable field is written: JSON-ish fields go through jsonValue. */
const PATCH_FIELDS: { [K in keyof Required<TaskPatch>]: 'plain' | 'json' } = {
  sessionId: 'plain',
  url: 'plain',
  query: 'plain',
  status: 'plain',
  complexity: 'plain',
  plan: 'json',
  hierarchicalPlan: 'json',
  currentStepIndex: 'plain',
  corrections: 'json',
  metrics: 'json',
  lastChain: 'json',
  webSearchResult: 'json',
  result: 'plain',
  collectLimit: 'plain',
  consecutiveFailures: 'plain',
  consecutiveSuccessWithoutTaskComplete: 'plain',
};

/**
 * $set for the keys present in a patch. Only whitelisted keys pass, so a patch can never touch
 * id, tenantId, userId, version or createdAt whatever object it is at run time.
 */
function patchSet(patch: TaskPatch): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(PATCH_FIELDS)) {
    if (!Object.hasOwn(patch, key)) continue;
    const value: unknown = patch[key as keyof TaskPatch];
    if (value === undefined) continue;
    set[key] = kind === 'json' ? jsonValue(value) : value;
  }
  return set;
}

export function mongoTasks({ tasks }: MongoModels): TaskRepository {
  const get = async (tenantId: string, id: string): Promise<Task | null> => {
    const doc = await tasks.findOne({ tenantId, id }).lean().exec();
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
      const filter: Record<string, unknown> = { tenantId, id };
      if (options.ifVersion !== undefined) filter.version = options.ifVersion;
      const doc = await tasks
        .findOneAndUpdate(
          filter,
          { $set: { ...patchSet(patch), updatedAt: nowDate() }, $inc: { version: 1 } },
          { returnDocument: 'after' },
        )
        .lean()
        .exec();
      if (doc) return toTask(doc);
      if (options.ifVersion !== undefined && (await tasks.exists({ tenantId, id }).exec())) {
        throw new VersionConflictError(`task ${id} is not at version ${options.ifVersion}`);
      }
      return null;
    },

    async list(tenantId, options = {}) {
      const limit = clampLimit(options.limit, 50);
      const filter: Record<string, unknown> = { tenantId, ...olderThanCursor(options.cursor) };
      if (options.status !== undefined) {
        if (options.status.length === 0) return { items: [], nextCursor: null };
        filter.status = { $in: options.status };
      }
      if (options.userId !== undefined) filter.userId = options.userId;
      if (options.sessionId !== undefined) filter.sessionId = options.sessionId;
      if (options.createdFrom !== undefined || options.createdTo !== undefined) {
        // Merged with the cursor's $or (which also bounds createdAt) rather than replacing it.
        const createdAt: Record<string, Date> = {};
        if (options.createdFrom !== undefined) createdAt.$gte = toDate(options.createdFrom);
        if (options.createdTo !== undefined) createdAt.$lt = toDate(options.createdTo);
        filter.$and = [{ createdAt }];
      }
      const docs = await tasks
        .find(filter)
        .sort({ createdAt: -1, id: -1 })
        .limit(limit + 1)
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
      const filter: Record<string, unknown> = {
        tenantId,
        sessionId: input.sessionId,
        status: { $in: LIVE_STATUSES },
      };
      if (input.url !== undefined) filter.url = input.url;
      const doc = await tasks.findOne(filter).sort({ createdAt: -1, id: -1 }).lean().exec();
      return doc ? toTask(doc) : null;
    },

    async expireStale(tenantId, input) {
      const filter: Record<string, unknown> = {
        tenantId,
        status: { $in: LIVE_STATUSES },
        updatedAt: { $lt: toDate(input.olderThan) },
      };
      if (input.sessionId !== undefined) filter.sessionId = input.sessionId;
      // Bumps version too, so a request that read the task before the sweep loses its ifVersion.
      const result = await tasks
        .updateMany(filter, {
          $set: { status: 'interrupted', updatedAt: nowDate() },
          $inc: { version: 1 },
        })
        .exec();
      return result.modifiedCount;
    },
  };
}
