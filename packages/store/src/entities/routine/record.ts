// Routines: a task that completed with every step verified, compiled into steps that
// run again without the model. Keyed by tenant, site and goal template; a changed routine is a
// new record with the next version, so the old versions stay (what a heal replaced is kept).
import { parseTemplate, type RoutineParameter, type RoutineStep } from '@tandem/contracts';
import type { Page } from '../../port';
import { newId } from '../../shared';

export interface Routine {
  id: string;
  tenantId: string;
  /** The host the routine runs on (with its port when not the default). */
  site: string;
  /** The goal with `{name}` where each parameter's value was. */
  goalTemplate: string;
  /** The title people see; defaults to the template. */
  name: string;
  parameters: RoutineParameter[];
  steps: RoutineStep[];
  /** 1 for the first; each new version of the same tenant + site + template is the next. */
  version: number;
  /** The task the version was compiled from (null when written by other means). */
  sourceTaskId: string | null;
  /** A disabled version is never found for a rerun. */
  enabled: boolean;
  /** Reruns of this version, steps healed by the model in them, tokens they did not spend. */
  runs: number;
  heals: number;
  tokensSaved: number;
  createdAt: string;
  updatedAt: string;
}

export type NewRoutine = Pick<Routine, 'site' | 'goalTemplate' | 'parameters' | 'steps'> &
  Partial<Pick<Routine, 'id' | 'name' | 'sourceTaskId' | 'enabled'>>;

/** What an admin may change on a version: its title, and whether it may run. */
export type RoutinePatch = Partial<Pick<Routine, 'name' | 'enabled'>>;

/** A new version: the steps (and what they take) that replace the latest one's. */
export type NewRoutineVersion = Pick<Routine, 'parameters' | 'steps'> &
  Partial<Pick<Routine, 'id' | 'sourceTaskId'>>;

export interface RoutineRepository {
  /**
   * Stores version 1 of a routine, or the next version when the tenant already has one for
   * the same site and template (the old ones are kept). Never overwrites.
   */
  create(tenantId: string, input: NewRoutine): Promise<Routine>;
  get(tenantId: string, id: string): Promise<Routine | null>;
  /**
   * The highest enabled version for the site and template (with `includeDisabled`, the highest
   * of all: whether an admin turned the routine off); null when there is none.
   */
  findLatest(
    tenantId: string,
    input: { site: string; goalTemplate: string },
    options?: { includeDisabled?: boolean },
  ): Promise<Routine | null>;
  /** Every version of the routine `id` belongs to, newest version first. */
  versions(tenantId: string, id: string): Promise<Routine[]>;
  /** Newest first (every version); default 50. */
  list(
    tenantId: string,
    options?: { site?: string; limit?: number; cursor?: string | null },
  ): Promise<Page<Routine>>;
  /** Renames, enables or disables one version; null when it is not the tenant's. */
  update(tenantId: string, id: string, patch: RoutinePatch): Promise<Routine | null>;
  /** Adds to the counters (a rerun, its heals, its tokens saved); null when not found. */
  addCounts(
    tenantId: string,
    id: string,
    counts: Partial<Pick<Routine, 'runs' | 'heals' | 'tokensSaved'>>,
  ): Promise<Routine | null>;
  /**
   * Stores the next version of the routine `id` belongs to (version = its highest + 1; same
   * site, template, name and enabled as the version `id`). Null when `id` is not the tenant's.
   */
  addVersion(tenantId: string, id: string, input: NewRoutineVersion): Promise<Routine | null>;
  /** Deletes one version; false when it was not the tenant's. */
  delete(tenantId: string, id: string): Promise<boolean>;
}

/** `firstName` as people read it in a title: ‹first name›. */
const placeholder = (name: string) =>
  `‹${name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()}›`;

/**
 * The default title: the template with its parameters as ‹first name› (braces and doubled
 * braces are template syntax, not words), cut at a word boundary to fit a list row.
 */
export function defaultRoutineName(goalTemplate: string): string {
  let readable: string;
  try {
    readable = parseTemplate(goalTemplate)
      .map((p) => (typeof p === 'string' ? p : placeholder(p.param)))
      .join('');
  } catch {
    readable = goalTemplate;
  }
  const flat = readable.replace(/\s+/g, ' ').trim();
  if (flat.length <= 80) return flat;
  const cut = flat.slice(0, 81).replace(/\s+\S*$/, '');
  return `${cut.length >= 40 ? cut : flat.slice(0, 80)}…`;
}

/** The next version of `base`: its site, template, name and enabled, with the new steps. */
export const nextVersionOf = (base: Routine, input: NewRoutineVersion): NewRoutine => ({
  site: base.site,
  goalTemplate: base.goalTemplate,
  name: base.name,
  enabled: base.enabled,
  parameters: input.parameters,
  steps: input.steps,
  ...(input.id !== undefined ? { id: input.id } : {}),
  sourceTaskId: input.sourceTaskId ?? null,
});

export function newRoutineRecord(
  tenantId: string,
  input: NewRoutine,
  version: number,
  now: string,
): Routine {
  return {
    id: input.id ?? newId(),
    tenantId,
    site: input.site,
    goalTemplate: input.goalTemplate,
    name: input.name ?? defaultRoutineName(input.goalTemplate),
    parameters: input.parameters,
    steps: input.steps,
    version,
    sourceTaskId: input.sourceTaskId ?? null,
    enabled: input.enabled ?? true,
    runs: 0,
    heals: 0,
    tokensSaved: 0,
    createdAt: now,
    updatedAt: now,
  };
}
