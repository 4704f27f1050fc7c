// Query documents of the tasks repository.
import type { TaskStatus } from '@tandem/contracts';
import type { TaskPatch } from '../../port';
import { jsonValue } from './json';
import { olderThanCursor, toDate } from './cursor';
import type { Filter, FindSpec, UpdateSpec } from './spec';

/**
 * Statuses a task can still advance from (findActive / expireStale look at these): a task
 * paused on a question is live too, and its answer continues it.
 */
export const LIVE_STATUSES: TaskStatus[] = ['active', 'executing', 'needs_user_input'];

const NEWEST_FIRST = { createdAt: -1, id: -1 } as const;

export const taskFilter = (tenantId: string, id: string): Filter => ({ tenantId, id });

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
export function patchSet(patch: TaskPatch): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(PATCH_FIELDS)) {
    if (!Object.hasOwn(patch, key)) continue;
    const value: unknown = patch[key as keyof TaskPatch];
    if (value === undefined) continue;
    set[key] = kind === 'json' ? jsonValue(value) : value;
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
  const filter: Filter = { tenantId, sessionId: input.sessionId, status: { $in: LIVE_STATUSES } };
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
    status: { $in: LIVE_STATUSES },
    updatedAt: { $lt: toDate(input.olderThan) },
  };
  if (input.sessionId !== undefined) filter.sessionId = input.sessionId;
  return {
    filter,
    update: { $set: { status: 'interrupted', updatedAt: now }, $inc: { version: 1 } },
  };
}
