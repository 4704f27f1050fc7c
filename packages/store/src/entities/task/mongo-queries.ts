// Query documents of the tasks and task actions repositories (a task's step history), kept
// apart from the adapter so mingo tests can evaluate them without a server.
import type { TaskStatus } from '@tandem/contracts';
import type { Filter, FindSpec, UpdateSpec } from '../../mongo/queries/spec';
import { olderThanCursor, toDate } from '../../mongo/queries/cursor';
import { jsonValue } from '../../mongo/queries/json';
import { TASK_PATCH_FIELDS } from './fields';
import { LIVE_TASK_STATUSES, type TaskPatch } from './record';

const NEWEST_FIRST = { createdAt: -1, id: -1 } as const;

export const taskFilter = (tenantId: string, id: string): Filter => ({ tenantId, id });

/** $set for the keys present in a patch; only TASK_PATCH_FIELDS pass. */
export function patchSet(patch: TaskPatch): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [key, { json }] of Object.entries(TASK_PATCH_FIELDS)) {
    if (!Object.hasOwn(patch, key)) continue;
    const value: unknown = patch[key as keyof TaskPatch];
    if (value === undefined) continue;
    set[key] = json ? jsonValue(value) : value;
  }
  return set;
}

/** The patch and a version bump; with `ifVersion`, only a task still at that version matches. */
export function taskUpdate(
  tenantId: string,
  id: string,
  patch: TaskPatch,
  ifVersion: number | undefined,
  now: Date,
): UpdateSpec {
  const filter = taskFilter(tenantId, id);
  if (ifVersion !== undefined) filter.version = ifVersion;
  return {
    filter,
    update: { $set: { ...patchSet(patch), updatedAt: now }, $inc: { version: 1 } },
  };
}

export interface TaskListOptions {
  status?: TaskStatus[];
  userId?: string;
  sessionId?: string;
  createdFrom?: string;
  createdTo?: string;
  cursor?: string | null;
}

/** A page of tasks, newest first, one more than `limit` (to know whether another page exists). */
export function taskListQuery(tenantId: string, options: TaskListOptions, limit: number): FindSpec {
  const filter: Filter = { tenantId, ...olderThanCursor(options.cursor) };
  if (options.status !== undefined) filter.status = { $in: options.status };
  if (options.userId !== undefined) filter.userId = options.userId;
  if (options.sessionId !== undefined) filter.sessionId = options.sessionId;
  if (options.createdFrom !== undefined || options.createdTo !== undefined) {
    // Merged with the cursor's $or (which also bounds createdAt) rather than replacing it.
    const createdAt: Record<string, Date> = {};
    if (options.createdFrom !== undefined) createdAt.$gte = toDate(options.createdFrom);
    if (options.createdTo !== undefined) createdAt.$lt = toDate(options.createdTo);
    filter.$and = [{ createdAt }];
  }
  return { filter, sort: NEWEST_FIRST, limit: limit + 1 };
}

/** The session's newest live task (on `url` when given). */
export function activeTaskQuery(
  tenantId: string,
  input: { sessionId: string; url?: string },
): FindSpec {
  const filter: Filter = {
    tenantId,
    sessionId: input.sessionId,
    status: { $in: LIVE_TASK_STATUSES },
  };
  if (input.url !== undefined) filter.url = input.url;
  return { filter, sort: NEWEST_FIRST, limit: 1 };
}

/**
 * Live tasks untouched since `olderThan` become interrupted. Bumps version too, so a request
 * that read the task before the sweep loses its ifVersion.
 */
export function expireStaleUpdate(
  tenantId: string,
  input: { olderThan: string; sessionId?: string },
  now: Date,
): UpdateSpec {
  const filter: Filter = {
    tenantId,
    status: { $in: LIVE_TASK_STATUSES },
    updatedAt: { $lt: toDate(input.olderThan) },
  };
  if (input.sessionId !== undefined) filter.sessionId = input.sessionId;
  return {
    filter,
    update: { $set: { status: 'interrupted', updatedAt: now }, $inc: { version: 1 } },
  };
}

// _id (an ObjectId, increasing in creation order) is the last tie-breaker: actions of one step
// written in one batch keep their order.
const ORDER = { stepIndex: 1, createdAt: 1, _id: 1 } as const;
const ORDER_DESC = { stepIndex: -1, createdAt: -1, _id: -1 } as const;

export const actionFilter = (tenantId: string, id: string): Filter => ({ tenantId, id });

export const actionsByTaskQuery = (tenantId: string, taskId: string): FindSpec => ({
  filter: { tenantId, taskId },
  sort: ORDER,
});

export const lastActionQuery = (tenantId: string, taskId: string): FindSpec => ({
  filter: { tenantId, taskId },
  sort: ORDER_DESC,
  limit: 1,
});

export const actionsByTasksQuery = (tenantId: string, taskIds: readonly string[]): FindSpec => ({
  filter: { tenantId, taskId: { $in: [...new Set(taskIds)] } },
  sort: { taskId: 1, ...ORDER },
});

export const actionUpdate = (
  tenantId: string,
  id: string,
  set: Record<string, unknown>,
): UpdateSpec => ({ filter: actionFilter(tenantId, id), update: { $set: set } });
