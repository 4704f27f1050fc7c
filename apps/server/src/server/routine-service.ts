// Routines as an admin sees and controls them, for the JSON routes and the server-rendered
// admin pages alike. Every call is scoped to the caller's tenant: another tenant's id is a 404,
// exactly like an id that does not exist. Renaming, enabling and deleting act on the whole
// routine (all its versions), because a rerun uses the highest enabled version: disabling or
// deleting only the newest would quietly bring an older one back into use.
import {
  ROUTINE_OFFERS_MAX,
  type DeleteRoutineResponse,
  type Routine,
  type RoutineOffer,
  type RoutineOfferList,
  type RoutineDetail,
  type RoutineList,
  type RoutineListQuery,
  type RoutinePatchRequest,
  type RoutineSummary,
} from '@tandem/contracts';
import type { Routine as StoredRoutine, Store } from '@tandem/store';
import { HttpError } from './http-error';

export interface RoutineService {
  list(tenantId: string, query: RoutineListQuery): Promise<RoutineList>;
  get(tenantId: string, id: string): Promise<RoutineDetail>;
  update(tenantId: string, id: string, patch: RoutinePatchRequest): Promise<RoutineDetail>;
  delete(tenantId: string, id: string): Promise<DeleteRoutineResponse>;
  /** What the popup offers to run again on `site`: enabled, latest version, newest first. */
  offers(tenantId: string, site: string): Promise<RoutineOfferList>;
}

/** The stored version as the API shows it (the tenant id stays inside). */
export function toRoutine(stored: StoredRoutine): Routine {
  const { tenantId: _tenantId, ...routine } = stored;
  return routine;
}

export function toRoutineSummary(stored: StoredRoutine): RoutineSummary {
  const { tenantId: _tenantId, steps, parameters, ...rest } = stored;
  return {
    ...rest,
    parameters: parameters.map(({ name, example }) => ({ name, example })),
    stepCount: steps.length,
  };
}

export function toRoutineOffer(stored: StoredRoutine): RoutineOffer {
  return {
    id: stored.id,
    name: stored.name,
    goalTemplate: stored.goalTemplate,
    parameters: stored.parameters.map(({ name, example }) => ({ name, example })),
    version: stored.version,
    savedAt: stored.createdAt,
    runs: stored.runs,
  };
}

// Versions read per page while looking for offers, and the most pages read: a site with
// thousands of heals must not turn opening the popup into a scan of every version.
const OFFER_SCAN_PAGE = 200;
const OFFER_SCAN_PAGES = 5;

const keyOf = (routine: Pick<StoredRoutine, 'site' | 'goalTemplate'>): string =>
  JSON.stringify([routine.site, routine.goalTemplate]);

export function createRoutineService(store: Store): RoutineService {
  const versionsOrNotFound = async (tenantId: string, id: string): Promise<StoredRoutine[]> => {
    const versions = await store.routines.versions(tenantId, id);
    if (versions.length === 0) throw new HttpError('NOT_FOUND', `No routine ${id}.`);
    return versions;
  };

  const detail = async (tenantId: string, id: string): Promise<RoutineDetail> => {
    const routine = await store.routines.get(tenantId, id);
    if (!routine) throw new HttpError('NOT_FOUND', `No routine ${id}.`);
    const versions = await store.routines.versions(tenantId, id);
    return { ...toRoutine(routine), versions: versions.map(toRoutineSummary) };
  };

  return {
    async list(tenantId, query) {
      const page = await store.routines.list(tenantId, {
        limit: query.limit,
        ...(query.site !== undefined ? { site: query.site } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
      if (query.versions === 'all') {
        return { items: page.items.map(toRoutineSummary), nextCursor: page.nextCursor };
      }
      // The page is versions, newest first: keep a version only when it is its routine's
      // highest (one lookup per routine on the page, not per version).
      const latest = new Map<string, string | undefined>();
      for (const item of page.items) {
        const key = keyOf(item);
        if (latest.has(key)) continue;
        const top = await store.routines.findLatest(tenantId, item, { includeDisabled: true });
        latest.set(key, top?.id);
      }
      return {
        items: page.items
          .filter((item) => latest.get(keyOf(item)) === item.id)
          .map(toRoutineSummary),
        nextCursor: page.nextCursor,
      };
    },

    get: detail,

    async offers(tenantId, site) {
      const offers: RoutineOffer[] = [];
      const seen = new Set<string>();
      let cursor: string | null = null;
      // Versions come newest first, so a template's first appearance is its newest version and
      // the offers come out newest first without sorting.
      for (let page = 0; page < OFFER_SCAN_PAGES; page += 1) {
        const versions = await store.routines.list(tenantId, {
          site,
          limit: OFFER_SCAN_PAGE,
          ...(cursor ? { cursor } : {}),
        });
        for (const version of versions.items) {
          const key = keyOf(version);
          if (seen.has(key)) continue;
          seen.add(key);
          // The highest enabled version, the one a rerun would use (null: disabled).
          const latest = await store.routines.findLatest(tenantId, version);
          if (latest) offers.push(toRoutineOffer(latest));
          if (offers.length === ROUTINE_OFFERS_MAX) return { items: offers };
        }
        cursor = versions.nextCursor;
        if (!cursor) break;
      }
      return { items: offers };
    },

    async update(tenantId, id, patch) {
      const versions = await versionsOrNotFound(tenantId, id);
      const changes = {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      };
      for (const version of versions) await store.routines.update(tenantId, version.id, changes);
      return detail(tenantId, id);
    },

    async delete(tenantId, id) {
      const versions = await versionsOrNotFound(tenantId, id);
      let deleted = 0;
      for (const version of versions) {
        if (await store.routines.delete(tenantId, version.id)) deleted += 1;
      }
      // A concurrent delete took them first: the routine is gone either way.
      if (deleted === 0) throw new HttpError('NOT_FOUND', `No routine ${id}.`);
      return { deleted };
    },
  };
}
