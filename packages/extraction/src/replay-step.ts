// Replay without the model (beyond the spec, docs/specs.md, "the strategy cache"): a strategy that
// worked keeps where each field came from on the page. On a page it matches, those selectors run
// first; their data is the answer only when it validates against the schema and passes the spot
// check. Otherwise the model extracts, and what it found teaches the strategy again. The page work
// itself happens in the PageReader (the server's worker pool); here is what it means for the
// strategy.
import type { ExtractionStrategy } from '@tandem/store';
import { itemCount } from './merge';
import { leadsOn } from './page-onward';
import type { PageRead, PageReader, PageReadRequest } from './page-reader';
import { keptSelector, type ExtractionPlan } from './plan';
import { queryTemplate } from './prompt';
import { isRecipeList, recipeEntry, storedRecipes, upgradedReplay } from './recipe-list';
import type { Produced, RunExtractionInput } from './service';
import type { ExtractionCache } from './strategy-cache';

export interface ReplayOutcome {
  produced: Produced | null;
  warnings: string[];
}

/**
 * The strategy's recipes as stored (recipe-list.ts), most recently used first, each with how
 * many times it has replayed: a relearned recipe starts again at 0, so its first replay is
 * cross-checked, and each layout's recipe is sampled on its own count.
 */
export interface RecipeState {
  /** `${strategyId}:${recipe hash}`: what results name as `replay.recipeId`. */
  recipeId: string;
  /** The recipe's id within its strategy (the hash). */
  id: string;
  replays: number;
}

export function recipeStates(plan: ExtractionPlan): RecipeState[] {
  const { strategy } = plan;
  if (!strategy) return [];
  return storedRecipes(strategy.replay).map((stored) => ({
    recipeId: `${strategy.id}:${stored.id}`,
    id: stored.id,
    replays: stored.replays,
  }));
}

/**
 * A replay stored before recipe lists (one recipe, its count beside it) is rewritten as a list
 * of that recipe before the first change the store makes atomically on lists. This one rewrite
 * is a read-modify-write; a strategy goes through it once.
 */
async function ensureRecipeList(
  cache: ExtractionCache,
  tenantId: string,
  strategy: ExtractionStrategy,
): Promise<void> {
  if (isRecipeList(strategy.replay)) return;
  const upgraded = upgradedReplay(strategy.replay);
  if (!upgraded) return;
  await cache.setReplay(tenantId, strategy.id, upgraded);
  // The plan's copy too: a later step of this run (a relearn after a retire) must not upgrade
  // again from the old recipe and bring back the one just retired.
  strategy.replay = upgraded;
}

/** One more replay of the recipe that replayed, counted atomically for the sampled check. */
export async function countReplay(
  cache: ExtractionCache,
  tenantId: string,
  plan: ExtractionPlan,
  state: RecipeState,
): Promise<void> {
  if (!plan.strategy) return;
  await ensureRecipeList(cache, tenantId, plan.strategy);
  await cache.countRecipeReplay(tenantId, plan.strategy.id, state.id);
}

/** Retires the recipe the cross-check disagreed with, and only that one. */
export async function retireRecipe(
  cache: ExtractionCache,
  tenantId: string,
  plan: ExtractionPlan,
  state: RecipeState,
): Promise<void> {
  if (!plan.strategy) return;
  await ensureRecipeList(cache, tenantId, plan.strategy);
  await cache.retireRecipe(tenantId, plan.strategy.id, state.id);
}

/** The strategy's recipes to try on this page, when it has any for the plan's schema. */
function replayOf(plan: ExtractionPlan): PageReadRequest['replay'] {
  const { strategy, schema } = plan;
  if (!strategy?.replay || !schema) return null;
  const recipes = storedRecipes(strategy.replay).map((stored) => stored.recipe);
  return recipes.length > 0 ? { recipes, schema: schema.json } : null;
}

/** The selector to apply to the HTML here: the extension's snapshot is already scoped by it. */
const selectorFor = (input: RunExtractionInput, plan: ExtractionPlan): string | null =>
  input.applySelector ? plan.cssSelector : null;

/** The content to extract from: HTML read (and replayed) by the reader, or Markdown as given. */
export function readContent(
  pages: PageReader,
  input: RunExtractionInput,
  plan: ExtractionPlan,
  render = false,
): Promise<PageRead> {
  if (input.html === undefined) {
    const markdown = input.markdown ?? '';
    return Promise.resolve({
      markdown,
      sourceChars: markdown.length,
      warnings: [],
      replayed: null,
      replayProblem: null,
      // No HTML to read links from: only those the client listed (at most 2,000) are checked.
      ...(input.onward
        ? { onward: leadsOn(input.onward.outside ?? [], input.onward.url, input.onward.move) }
        : {}),
    });
  }
  return pages.read({
    tenantId: input.tenantId,
    html: input.html,
    cssSelector: selectorFor(input, plan),
    url: input.url,
    replay: replayOf(plan),
    ...(render ? { render } : {}),
    ...(input.onward ? { onward: input.onward } : {}),
  });
}

/**
 * What the replay produced, or why the model extracts instead (counted against the strategy).
 * `state` is the recipe that replayed (recipeStates()[content.replayed.recipe]).
 */
export async function replayOutcome(
  cache: ExtractionCache,
  tenantId: string,
  plan: ExtractionPlan,
  content: PageRead,
  state: RecipeState | null,
): Promise<ReplayOutcome> {
  if (content.replayProblem !== null && plan.strategy) {
    await cache.recordResult(tenantId, plan.strategy.id, false);
    return {
      produced: null,
      warnings: [
        `The strategy's selectors did not fit this page (${content.replayProblem}); the model extracted instead.`,
      ],
    };
  }
  if (!content.replayed) return { produced: null, warnings: [] };
  return {
    produced: {
      data: content.replayed.data,
      method: 'replay',
      isPartial: false,
      errors: [],
      warnings: content.replayed.warnings,
      chunks: 0,
      failedChunks: 0,
      structuralContext: [],
      modelCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costMicroUsd: 0,
      replay: {
        recipeId: state?.recipeId ?? plan.strategy?.id ?? '',
        evidence: content.replayed.evidence,
        checked: false,
      },
    },
    warnings: [],
  };
}

/**
 * After the extraction: a complete schema-valid result registers (or confirms) the strategy and
 * learns its selectors; a failed one counts against the strategy it used. The strategy returned
 * is the aggregate key: the one the model named, so pages of one extraction stay together.
 *
 * A recipe learned for a strategy that has some is added to them (one per layout, recipe-list.ts)
 * rather than replacing them. A page no strategy matched is first offered to the strategies of
 * the same origin, schema and path shape (strategy-cache.ts `widenable`): when one's recipe,
 * evidence holding, reads exactly what the model read here, the page shares that recipe, and
 * that strategy's URL pattern widens at the segments where this page differs, instead of a
 * second strategy being made. Only that evidence widens a pattern (url-pattern.ts).
 */
export async function learnFrom(
  cache: ExtractionCache,
  pages: PageReader,
  input: RunExtractionInput,
  plan: ExtractionPlan,
  produced: Produced,
): Promise<ExtractionStrategy | null> {
  const { schema } = plan;
  const succeeded =
    schema !== null && !produced.isPartial && !isEmptyData(produced.data) && input.url !== null;
  if (!succeeded) {
    if (plan.strategy) await cache.recordResult(input.tenantId, plan.strategy.id, false);
    return plan.strategy;
  }
  const url = input.url as string;
  if (produced.method === 'replay' && plan.strategy) {
    await cache.recordResult(input.tenantId, plan.strategy.id, true);
    return plan.strategy;
  }
  const neighbours =
    plan.strategy || input.html === undefined
      ? []
      : await cache.widenable(input.tenantId, url, schema.hash, keptSelector(plan.cssSelector));
  const probes = neighbours.flatMap((neighbour) =>
    storedRecipes(neighbour.replay).map((stored) => ({
      key: `${neighbour.id}:${stored.id}`,
      owner: neighbour.id,
      recipe: stored.recipe,
    })),
  );
  const learned =
    input.html === undefined
      ? null
      : await pages.learn({
          tenantId: input.tenantId,
          html: input.html,
          cssSelector: selectorFor(input, plan),
          url,
          data: produced.data,
          schema: schema.json,
          ...(probes.length > 0
            ? { probes: probes.map(({ key, recipe }) => ({ key, recipe })) }
            : {}),
        });
  const agreeing = new Set(learned?.agreeing ?? []);
  const shared = (id: string) => probes.some((p) => p.owner === id && agreeing.has(p.key));
  for (const neighbour of neighbours.filter((n) => shared(n.id))) {
    const widened = await cache.widen(input.tenantId, neighbour, url);
    if (!widened) continue;
    await cache.recordResult(input.tenantId, widened.id, true);
    return widened;
  }
  const strategy =
    plan.strategy ??
    (await cache.register(input.tenantId, {
      url,
      cssSelector: keptSelector(plan.cssSelector),
      outputSchema: schema.json,
      schemaHash: schema.hash,
      queryTemplate: queryTemplate(plan.query, schema.json),
    }));
  if (learned?.recipe) {
    await ensureRecipeList(cache, input.tenantId, strategy);
    await cache.addRecipe(input.tenantId, strategy.id, recipeEntry(learned.recipe));
  } else if (learned && !learned.recipe) {
    produced.warnings.push(`No replay selectors were learned: ${learned.reason}`);
  }
  await cache.recordResult(input.tenantId, strategy.id, true);
  return strategy;
}

function isEmptyData(data: unknown): boolean {
  const items = itemCount(data);
  if (items !== null) return items === 0;
  return data === null || data === undefined || data === '';
}
