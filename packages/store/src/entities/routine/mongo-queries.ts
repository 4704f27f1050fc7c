// Query documents of the routines repository, kept apart from the adapter so mingo tests can
// evaluate them without a server.
import type { Filter, FindSpec, UpdateSpec } from '../../mongo/queries/spec';
import { olderThanCursor } from '../../mongo/queries/cursor';
import type { Routine, RoutinePatch } from './record';

export const routineFilter = (tenantId: string, id: string): Filter => ({ tenantId, id });

type RoutineKey = Pick<Routine, 'site' | 'goalTemplate'>;

/** Every version of one routine, highest first (the first one gives the next number). */
export const versionsQuery = (tenantId: string, key: RoutineKey): FindSpec => ({
  filter: { tenantId, site: key.site, goalTemplate: key.goalTemplate },
  sort: { version: -1 },
});

/** The highest enabled version (or the highest of all, disabled ones included). */
export const latestQuery = (
  tenantId: string,
  key: RoutineKey,
  includeDisabled = false,
): FindSpec => ({
  filter: {
    tenantId,
    site: key.site,
    goalTemplate: key.goalTemplate,
    ...(includeDisabled ? {} : { enabled: true }),
  },
  sort: { version: -1 },
  limit: 1,
});

/** A page of versions, newest first; `limit + 1` tells whether another page follows. */
export function routineListQuery(
  tenantId: string,
  options: { site?: string; cursor?: string | null },
  limit: number,
): FindSpec {
  const filter: Filter = { tenantId, ...olderThanCursor(options.cursor) };
  if (options.site !== undefined) filter.site = options.site;
  return { filter, sort: { createdAt: -1, id: -1 }, limit: limit + 1 };
}

export function routinePatchUpdate(
  tenantId: string,
  id: string,
  patch: RoutinePatch,
  now: Date,
): UpdateSpec {
  const set: Record<string, unknown> = { updatedAt: now };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.enabled !== undefined) set.enabled = patch.enabled;
  return { filter: routineFilter(tenantId, id), update: { $set: set } };
}

export function routineCountsUpdate(
  tenantId: string,
  id: string,
  counts: Partial<Pick<Routine, 'runs' | 'heals' | 'tokensSaved'>>,
  now: Date,
): UpdateSpec {
  return {
    filter: routineFilter(tenantId, id),
    update: {
      $inc: {
        runs: counts.runs ?? 0,
        heals: counts.heals ?? 0,
        tokensSaved: counts.tokensSaved ?? 0,
      },
      $set: { updatedAt: now },
    },
  };
}
