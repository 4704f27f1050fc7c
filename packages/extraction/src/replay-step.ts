// Replay without the model (beyond the spec, docs/specs.md, "the strategy cache"): a strategy that
// worked keeps where each field came from on the page. On a page it matches, those selectors run
// first; their data is the answer only when it validates against the schema and passes the spot
// check. Otherwise the model extracts, and what it found teaches the strategy again. The page work
// itself happens in the PageReader (the server's worker pool); here is what it means for the
// strategy.
import type { ExtractionStrategy } from '@tandem/store';
import { itemCount } from './merge';
import type { PageRead, PageReader, PageReadRequest } from './page-reader';
import type { ExtractionPlan } from './plan';
import { queryTemplate } from './prompt';
import { ReplayRecipeSchema } from './replay';
import { recipeHash } from './replay-check';
import type { Produced, RunExtractionInput } from './service';
import type { ExtractionCache } from './strategy-cache';

export interface ReplayOutcome {
  produced: Produced | null;
  warnings: string[];
}

/**
 * The strategy's recipe as stored, with how many times it has replayed: the count lives next to
 * the recipe in the strategy's opaque replay JSON (the recipe schema ignores it), so a relearned
 * recipe starts again at 0 and its first replay is cross-checked.
 */
export interface RecipeState {
  recipeId: string;
  replays: number;
}

export function recipeState(plan: ExtractionPlan): RecipeState | null {
  const stored = plan.strategy?.replay;
  if (!plan.strategy || !stored) return null;
  const recipe = ReplayRecipeSchema.safeParse(stored);
  if (!recipe.success) return null;
  const replays = stored['replays'];
  return {
    recipeId: `${plan.strategy.id}:${recipeHash(recipe.data)}`,
    replays: typeof replays === 'number' && Number.isInteger(replays) && replays >= 0 ? replays : 0,
  };
}

/** One more replay of the strategy's recipe, counted for the sampled cross-check. */
export async function countReplay(
  cache: ExtractionCache,
  tenantId: string,
  plan: ExtractionPlan,
  state: RecipeState,
): Promise<void> {
  const stored = plan.strategy?.replay;
  if (!plan.strategy || !stored) return;
  await cache.setReplay(tenantId, plan.strategy.id, { ...stored, replays: state.replays + 1 });
}

/** The strategy's recipe to try on this page, when it has one for the plan's schema. */
function replayOf(plan: ExtractionPlan): PageReadRequest['replay'] {
  const { strategy, schema } = plan;
  if (!strategy?.replay || !schema) return null;
  const recipe = ReplayRecipeSchema.safeParse(strategy.replay);
  return recipe.success ? { recipe: recipe.data, schema: schema.json } : null;
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
    });
  }
  return pages.read({
    tenantId: input.tenantId,
    html: input.html,
    cssSelector: selectorFor(input, plan),
    url: input.url,
    replay: replayOf(plan),
    ...(render ? { render } : {}),
  });
}

/** What the replay produced, or why the model extracts instead (counted against the strategy). */
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
  if (produced.method === 'replay' && plan.strategy) {
    await cache.recordResult(input.tenantId, plan.strategy.id, true);
    return plan.strategy;
  }
  const strategy =
    plan.strategy ??
    (await cache.register(input.tenantId, {
      url: input.url as string,
      cssSelector: plan.cssSelector,
      outputSchema: schema.json,
      schemaHash: schema.hash,
      queryTemplate: queryTemplate(plan.query, schema.json),
    }));
  const learned =
    input.html === undefined
      ? null
      : await pages.learn({
          tenantId: input.tenantId,
          html: input.html,
          cssSelector: selectorFor(input, plan),
          url: input.url,
          data: produced.data,
          schema: schema.json,
        });
  if (learned?.recipe) {
    await cache.setReplay(input.tenantId, strategy.id, { ...learned.recipe });
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
