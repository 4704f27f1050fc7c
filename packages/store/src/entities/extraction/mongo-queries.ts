// Query documents of extractions, extraction results and learned extraction strategies.
import type { ExtractionStrategy } from './record';
import { jsonValue } from '../../mongo/queries/json';
import { toDate } from '../../mongo/queries/cursor';
import type { Filter, FindSpec, UpdateSpec } from '../../mongo/queries/spec';

export const byIdFilter = (tenantId: string, id: string): Filter => ({ tenantId, id });

export function extractionsQuery(
  tenantId: string,
  options: { taskId?: string },
  limit: number,
): FindSpec {
  const filter: Filter = { tenantId };
  if (options.taskId !== undefined) filter.taskId = options.taskId;
  return { filter, sort: { createdAt: -1, id: -1 }, limit };
}

export function extractionUpdate(
  tenantId: string,
  id: string,
  patch: { data?: unknown; status?: string; error?: string | null },
  now: Date,
): UpdateSpec {
  const set: Record<string, unknown> = { updatedAt: now };
  if (patch.data !== undefined) set.data = jsonValue(patch.data);
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.error !== undefined) set.error = patch.error;
  return { filter: byIdFilter(tenantId, id), update: { $set: set } };
}

/** A task's extraction results (of one extractionId when given), oldest first. */
export function resultsByTaskQuery(
  tenantId: string,
  taskId: string,
  options: { extractionId?: string },
  limit: number,
): FindSpec {
  const filter: Filter = { tenantId, taskId };
  if (options.extractionId !== undefined) filter.extractionId = options.extractionId;
  return { filter, sort: { createdAt: 1, id: 1 }, limit };
}

/**
 * Learns (or relearns) a strategy, unique per (tenant, url pattern, schema hash, selector). A
 * relearned strategy replaces what it extracts and how; the counters and the id keep its
 * history. An upsert that says nothing about replay keeps the recipe learned so far. The
 * filter's equalities (null selector included) are written on insert too.
 */
export function strategyUpsert(
  strategy: ExtractionStrategy,
  replayGiven: boolean,
  when: Date,
): UpdateSpec {
  const set: Record<string, unknown> = {
    domain: strategy.domain,
    outputSchema: jsonValue(strategy.outputSchema),
    queryTemplate: strategy.queryTemplate,
    lastUsed: when,
    updatedAt: when,
  };
  const setOnInsert: Record<string, unknown> = {
    id: strategy.id,
    successCount: strategy.successCount,
    failureCount: strategy.failureCount,
    createdAt: toDate(strategy.createdAt),
  };
  if (replayGiven) set.replay = jsonValue(strategy.replay);
  else setOnInsert.replay = null;
  return {
    filter: {
      tenantId: strategy.tenantId,
      urlPattern: strategy.urlPattern,
      schemaHash: strategy.schemaHash,
      cssSelector: strategy.cssSelector,
    },
    update: { $set: set, $setOnInsert: setOnInsert },
    upsert: true,
  };
}

export const strategiesByDomainQuery = (
  tenantId: string,
  domain: string,
  limit: number,
): FindSpec => ({ filter: { tenantId, domain }, sort: { lastUsed: -1, id: -1 }, limit });

export const strategyResultUpdate = (
  tenantId: string,
  id: string,
  success: boolean,
  when: Date,
): UpdateSpec => ({
  filter: byIdFilter(tenantId, id),
  update: {
    $inc: success ? { successCount: 1 } : { failureCount: 1 },
    $set: { lastUsed: when, updatedAt: when },
  },
});

export const strategyReplayUpdate = (
  tenantId: string,
  id: string,
  replay: unknown,
  when: Date,
): UpdateSpec => ({
  filter: byIdFilter(tenantId, id),
  update: { $set: { replay: jsonValue(replay), updatedAt: when } },
});

// The recipe list of a strategy's replay ({ recipes: [{ id, replays, used, … }] }): every change
// is one update of one document, atomic on the server, so concurrent replays all count and a
// retire is never undone by a count written from an older read.

/** The strategy, when its replay lists recipe `recipeId`. */
const withRecipe = (tenantId: string, id: string, recipeId: string): Filter => ({
  ...byIdFilter(tenantId, id),
  'replay.recipes.id': recipeId,
});

/**
 * Puts `entry` (replays 0, used `when`) first, drops an older entry with its id, and keeps the
 * `keep` most recently used. A pipeline update, so that the drop, the add and the cap are one
 * write; a replay that is no list yet (null, or an older single recipe) starts one.
 */
export function strategyAddRecipe(
  tenantId: string,
  id: string,
  entry: Record<string, unknown> & { id: string },
  keep: number,
  when: Date,
): UpdateSpec {
  const fresh = jsonValue({ ...entry, replays: 0, used: when.toISOString() });
  const listed = { $isArray: '$replay.recipes' };
  const others = {
    $filter: {
      input: { $cond: [listed, '$replay.recipes', []] },
      cond: { $ne: ['$$this.id', entry.id] },
    },
  };
  return {
    filter: byIdFilter(tenantId, id),
    update: [
      { $set: { replay: { $cond: [listed, '$replay', { $literal: {} }] } } },
      {
        $set: {
          'replay.recipes': {
            $slice: [
              {
                $concatArrays: [
                  [{ $literal: fresh }],
                  { $sortArray: { input: others, sortBy: { used: -1 } } },
                ],
              },
              Math.max(1, Math.floor(keep)),
            ],
          },
          updatedAt: when,
        },
      },
    ],
  };
}

/**
 * One more replay of recipe `recipeId`, used `when`. A pipeline over the list rather than `$inc`
 * and `$set` on `replay.recipes.$`: the same single atomic write, in a form mingo evaluates too
 * (it takes two positional paths into one element for a conflict, which MongoDB does not).
 */
export const strategyCountRecipe = (
  tenantId: string,
  id: string,
  recipeId: string,
  when: Date,
): UpdateSpec => ({
  filter: withRecipe(tenantId, id, recipeId),
  update: [
    {
      $set: {
        'replay.recipes': {
          $map: {
            input: '$replay.recipes',
            in: {
              $cond: [
                { $eq: ['$$this.id', { $literal: recipeId }] },
                {
                  $mergeObjects: [
                    '$$this',
                    {
                      replays: { $add: [{ $ifNull: ['$$this.replays', 0] }, 1] },
                      used: { $literal: when.toISOString() },
                    },
                  ],
                },
                '$$this',
              ],
            },
          },
        },
        updatedAt: when,
      },
    },
  ],
});

/** Recipe `recipeId` out of the list, the others as they are. */
export const strategyRetireRecipe = (
  tenantId: string,
  id: string,
  recipeId: string,
  when: Date,
): UpdateSpec => ({
  filter: withRecipe(tenantId, id, recipeId),
  update: { $pull: { 'replay.recipes': { id: recipeId } }, $set: { updatedAt: when } },
});

/** Another URL pattern, only while the strategy still has `from` (compare and set). */
export const strategyUrlPatternUpdate = (
  tenantId: string,
  id: string,
  change: { from: string; to: string },
  when: Date,
): UpdateSpec => ({
  filter: { ...byIdFilter(tenantId, id), urlPattern: change.from },
  update: { $set: { urlPattern: change.to, updatedAt: when } },
});
