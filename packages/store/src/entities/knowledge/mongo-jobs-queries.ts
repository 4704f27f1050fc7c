// Query documents of knowledge jobs (crawls and uploads).
import type { KnowledgeJob, KnowledgeJobKind, KnowledgeJobStatus } from './record';
import { jsonValue } from '../../mongo/queries/json';
import { toDate } from '../../mongo/queries/cursor';
import type { Filter, FindSpec, UpdateSpec } from '../../mongo/queries/spec';

export const jobFilter = (tenantId: string, id: string): Filter => ({ tenantId, id });

/** The tenant's jobs, newest first (of these statuses when given). */
export function jobsQuery(
  tenantId: string,
  status: readonly KnowledgeJobStatus[] | undefined,
  limit: number,
  kind?: KnowledgeJobKind,
): FindSpec {
  const filter: Filter = { tenantId };
  if (status !== undefined) filter.status = { $in: status };
  if (kind !== undefined) filter.kind = kind;
  return { filter, sort: { createdAt: -1, id: -1 }, limit };
}

const dateOrNull = (value: string | null): Date | null => (value === null ? null : toDate(value));

export type JobPatch = Partial<
  Pick<
    KnowledgeJob,
    | 'status'
    | 'progress'
    | 'frontier'
    | 'visited'
    | 'errors'
    | 'error'
    | 'startedAt'
    | 'finishedAt'
    | 'upload'
  >
>;

export function jobUpdate(tenantId: string, id: string, patch: JobPatch, now: Date): UpdateSpec {
  const set: Record<string, unknown> = { updatedAt: now };
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.progress !== undefined) set.progress = jsonValue(patch.progress);
  if (patch.frontier !== undefined) set.frontier = jsonValue(patch.frontier);
  if (patch.visited !== undefined) set.visited = jsonValue(patch.visited);
  if (patch.errors !== undefined) set.pageErrors = jsonValue(patch.errors);
  if (patch.error !== undefined) set.error = patch.error;
  if (patch.startedAt !== undefined) set.startedAt = dateOrNull(patch.startedAt);
  if (patch.finishedAt !== undefined) set.finishedAt = dateOrNull(patch.finishedAt);
  if (patch.upload !== undefined) set.upload = jsonValue(patch.upload);
  return { filter: jobFilter(tenantId, id), update: { $set: set } };
}

/** Jobs a stopped server left queued or running, across tenants, oldest first. */
export const unfinishedJobsQuery = (): FindSpec => ({
  filter: { status: { $in: ['queued', 'running'] } },
  sort: { createdAt: 1, id: 1 },
});
