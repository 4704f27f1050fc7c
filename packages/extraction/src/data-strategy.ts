// Strategies for data read some other way than an extraction: the items a collecting task's
// model read off a page and stored one by one (the agent's `collect`). A routine reruns that
// read without the model: it learns replay selectors from the earlier items on the page they
// came from (the learner's own spot check applies), keeps them as a strategy of the tenant like
// any extraction's, and replays them on later pages of that kind. Learning and replaying run in
// the PageReader (the server's worker pool): the HTML is untrusted and may be large.
import type { ExtractionStrategy } from '@tandem/store';
import type { JsonObject } from './json';
import type { OnwardAsk } from './page-onward';
import type { PageReader } from './page-reader';
import type { ReplayRecipe } from './replay/recipe';
import { recipeEntry, storedRecipes } from './recipe-list';
import { checkOutputSchema } from './schema';
import type { ExtractionCache } from './strategy-cache';

export interface DataPage {
  tenantId: string;
  url: string;
  html: string;
  /**
   * Also tell whether the page leads on past it, from the same parse (a routine's last read of
   * a list asks: PageReadRequest.onward).
   */
  onward?: OnwardAsk;
}

/** What of the page leads on past it, when the page was parsed and that was asked. */
type WithOnward = { onward?: string | null };

export type LearnedStrategy =
  | ({ strategy: ExtractionStrategy; data: unknown } & WithOnward)
  | ({ strategy: null; reason: string } & WithOnward);

export type ReplayedStrategy =
  | ({ ok: true; data: unknown; evidence: string[] } & WithOnward)
  | ({ ok: false; reason: string } & WithOnward);

/** What replaying a strategy is given. */
export interface DataReplay extends DataPage {
  strategy: ExtractionStrategy;
  /**
   * Items the model took as items of this list on another visit (a saved run's, shown again
   * here): one read exactly may carry an advert mark the learning page's items did not
   * ("Promoted", on a job repeated from the page before). See SpotCheckOptions.
   */
  known?: readonly unknown[];
}

/** What learning from data read some other way is given. */
export interface DataExamples extends DataPage {
  query: string;
  schema: JsonObject;
  data: unknown;
  /**
   * `data` was read off this page on an earlier visit (a saved run's items): a card beside them
   * that the selectors would leave out makes learning decline (replay/learn.ts, LearnOptions).
   */
  fromEarlierVisit?: boolean;
  /** Items of other pages this page may show again (PageLearnRequest.shownAgain). */
  shownAgain?: readonly Record<string, unknown>[];
}

/**
 * Learns a strategy from `data`, read off this page some other way, keyed by `query` (the
 * strategy's query template, the name its later lookups use). `data` must be what the page
 * shows: the learned selectors must read it back, or nothing is kept.
 */
export async function learnDataStrategy(
  cache: ExtractionCache,
  pages: PageReader,
  input: DataExamples,
): Promise<LearnedStrategy> {
  const checked = checkOutputSchema(input.schema);
  if (!checked.ok) return { strategy: null, reason: checked.warning };
  const learned = await pages.learn({
    tenantId: input.tenantId,
    html: input.html,
    cssSelector: null,
    url: input.url,
    data: input.data,
    schema: input.schema,
    ...(input.fromEarlierVisit ? { fromEarlierVisit: true } : {}),
    ...(input.shownAgain ? { shownAgain: input.shownAgain } : {}),
    readBack: true,
    ...(input.onward ? { onward: input.onward } : {}),
  });
  const onward = learned.onward !== undefined ? { onward: learned.onward } : {};
  if (!learned.recipe) return { strategy: null, reason: learned.reason, ...onward };
  // Read back (in the same parse) before anything is kept: selectors that do not read this
  // page leave no strategy.
  const back = learned.readBack ?? { ok: false, problem: 'the selectors were not read back' };
  if (!back.ok) return { strategy: null, reason: back.problem, ...onward };
  const strategy = await cache.register(input.tenantId, {
    url: input.url,
    cssSelector: null,
    outputSchema: input.schema,
    schemaHash: checked.schema.hash,
    queryTemplate: input.query,
  });
  await cache.addRecipe(input.tenantId, strategy.id, recipeEntry(learned.recipe));
  await cache.recordResult(input.tenantId, strategy.id, true);
  const fresh = (await cache.get(input.tenantId, strategy.id)) ?? strategy;
  return { strategy: fresh, data: back.data, ...onward };
}

/** The page read with these recipes, in the PageReader: its data, or why they did not fit. */
async function readWith(
  pages: PageReader,
  input: DataPage & { cssSelector?: string | null; known?: readonly unknown[] },
  recipes: ReplayRecipe[],
  schema: JsonObject,
): Promise<ReplayedStrategy> {
  const read = await pages.read({
    tenantId: input.tenantId,
    html: input.html,
    cssSelector: input.cssSelector ?? null,
    url: input.url,
    replay: { recipes, schema, ...(input.known ? { known: input.known } : {}) },
    ...(input.onward ? { onward: input.onward } : {}),
  });
  const onward = read.onward !== undefined ? { onward: read.onward } : {};
  if (!read.replayed)
    return {
      ok: false,
      reason: read.replayProblem ?? 'the selectors read nothing here',
      ...onward,
    };
  return { ok: true, data: read.replayed.data, evidence: read.replayed.evidence, ...onward };
}

/** The strategy's recipes replayed on this page, with no model: its data, or why none fitted. */
export async function replayDataStrategy(
  cache: ExtractionCache,
  pages: PageReader,
  input: DataReplay,
): Promise<ReplayedStrategy> {
  const { strategy } = input;
  const recipes = storedRecipes(strategy.replay).map((stored) => stored.recipe);
  if (recipes.length === 0) return { ok: false, reason: 'the strategy has no replay selectors' };
  const read = await readWith(
    pages,
    { ...input, cssSelector: strategy.cssSelector },
    recipes,
    strategy.outputSchema as JsonObject,
  );
  if (!read.ok) await cache.recordResult(input.tenantId, strategy.id, false);
  return read;
}

/** The tenant's strategy of this query template for a page at `url`, best first; null if none. */
export async function findDataStrategy(
  cache: ExtractionCache,
  tenantId: string,
  url: string,
  query: string,
): Promise<ExtractionStrategy | null> {
  const matching = await cache.findMatching(tenantId, url);
  return matching.find((s) => s.queryTemplate === query) ?? null;
}
