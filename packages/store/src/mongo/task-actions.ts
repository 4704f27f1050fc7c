// Task actions: the step history of a task. `insertMany` is one insertMany call (one batched
// write), because the agent flushes a chain's actions together.
import type { ExpectedOutcome, VerificationResult } from '@tandem/contracts';
import type { TaskAction, TaskActionRepository } from '../port';
import { newTaskActionRecord } from '../record-defaults';
import { nowIso } from '../shared';
import type { TaskActionDoc } from './documents';
import {
  actionFilter,
  actionsByTaskQuery,
  actionsByTasksQuery,
  actionUpdate,
  lastActionQuery,
} from './queries/task-actions';
import type { MongoModels } from './schemas';
import { fromJson, iso, jsonValue, toDate } from './util';

const toTaskAction = (doc: TaskActionDoc): TaskAction => ({
  id: doc.id,
  tenantId: doc.tenantId,
  taskId: doc.taskId,
  stepIndex: doc.stepIndex,
  thought: doc.thought,
  action: doc.action,
  expectedOutcome: fromJson<ExpectedOutcome | null>(doc.expectedOutcome),
  beforeState: fromJson<TaskAction['beforeState']>(doc.beforeState),
  verification: fromJson<VerificationResult | null>(doc.verification),
  status: doc.status,
  metrics: fromJson<TaskAction['metrics']>(doc.metrics),
  createdAt: iso(doc.createdAt),
});

/** The stored form of an action: JSON-ish parts through jsonValue, the time as a date. */
const toDoc = (action: TaskAction): TaskActionDoc => ({
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
      const doc = toDoc(newTaskActionRecord(tenantId, input, nowIso()));
      await taskActions.create(doc);
      return toTaskAction(doc);
    },
    async insertMany(tenantId, inputs) {
      if (inputs.length === 0) return [];
      const now = nowIso();
      const docs = inputs.map((input) => toDoc(newTaskActionRecord(tenantId, input, now)));
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
