// Replay without the model (beyond spec 001): a strategy that worked keeps where each field
// came from on the page. On a page it matches, those selectors run first; their data is the
// answer only when it validates against the schema and passes the spot check. Otherwise the
// model extracts, and what it found teaches the strategy again.
import type { ExtractionStrategy } from '@tandem/store';
import type { ParsedContent } from './content';
import { itemCount } from './merge';
import type { ExtractionPlan } from './plan';
import { queryTemplate } from './prompt';
import { applyRecipe, learnRecipe, ReplayRecipeSchema, spotCheck } from './replay';
import type { Produced, RunExtractionInput } from './service';
import type { ExtractionCache } from './strategy-cache';

export interface ReplayOutcome {
  produced: Produced | null;
  warnings: string[];
}

export async function replayStrategy(
  cache: ExtractionCache,
  tenantId: string,
  plan: ExtractionPlan,
  content: ParsedContent,
): Promise<ReplayOutcome> {
  const { strategy, schema } = plan;
  if (!strategy?.replay || !schema || !content.root) return { produced: null, warnings: [] };
  const recipe = ReplayRecipeSchema.safeParse(strategy.replay);
  if (!recipe.success) return { produced: null, warnings: [] };
  const applied = applyRecipe(content.root, recipe.data);
  const valid = schema.zod.safeParse(applied.data);
  const problem = !valid.success
    ? `its data does not match the schema (${valid.error.issues[0]?.message ?? 'invalid'})`
    : spotCheck(content.root, recipe.data, valid.data);
  if (problem !== null || !valid.success) {
    await cache.recordResult(tenantId, strategy.id, false);
    return {
      produced: null,
      warnings: [
        `The strategy's selectors did not fit this page (${problem}); the model extracted instead.`,
      ],
    };
  }
  return {
    produced: {
      data: valid.data,
      method: 'replay',
      isPartial: false,
      errors: [],
      warnings: applied.warnings,
      chunks: 0,
      failedChunks: 0,
      structuralContext: [],
      modelCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costMicroUsd: 0,
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
  input: RunExtractionInput,
  plan: ExtractionPlan,
  content: ParsedContent,
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
  const learned = content.root ? learnRecipe(content.root, produced.data, schema.json) : null;
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
