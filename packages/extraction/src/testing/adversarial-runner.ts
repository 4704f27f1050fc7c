// Runs adversarial scenarios through the real ExtractionService: page 1 by the model (which
// teaches the strategy its recipe), pages 2..n with the same query and schema and no
// extractionId, so the strategy is found by its URL pattern as on any later call, and replayed
// when the service takes it. Every later page is scored against its ground truth; a replay
// that is wrong without a warning or a partial flag is "silently wrong", the failure the
// replay must never have.
import type { ExtractionStrategy, Store } from '@tandem/store';
import { ExtractionService, type RunExtractionOutput } from '../service';
import { knownItemsModel } from './adversarial-model';
import type {
  AdversarialScenario,
  GeneratedPage,
  Item,
  VariationKind,
  VariationLabel,
} from './adversarial-pages';

export type AdversarialStore = Pick<Store, 'extractionResults' | 'extractionStrategies'>;

export interface FieldScore {
  extractedFields: number;
  correctFields: number;
  truthFields: number;
  recalledFields: number;
}

export interface PageOutcome {
  kind: VariationKind;
  label: VariationLabel;
  /** 1 is the learning page. */
  page: number;
  url: string;
  method: string;
  replayed: boolean;
  /** A replay the model cross-checked on a slice of the page (its tokens are the check's). */
  checked: boolean;
  /** The recipe that replayed (`replay.recipeId`); null for the model. */
  recipeId: string | null;
  warnings: string[];
  isPartial: boolean;
  /** The data equals the ground truth (items compared as a multiset). */
  exact: boolean;
  score: FieldScore;
  /** Model tokens (input + output) this call spent. */
  tokens: number;
  /** Replayed, not exact, and neither a warning nor isPartial said so. */
  silentlyWrong: boolean;
  /** The same page with no strategy to replay: the model path alone (when asked for). */
  modelOnly: { exact: boolean; tokens: number } | null;
}

export interface ScenarioOutcome {
  scenario: AdversarialScenario;
  /** Page 1 left a replay recipe on the strategy. */
  learned: boolean;
  learn: PageOutcome;
  later: PageOutcome[];
  /** Page 1's strategy after the last page: its recipes and URL pattern then. */
  final: ExtractionStrategy | null;
  /** Strategies the scenario's pages left (a widened pattern makes no second one). */
  strategies: number;
}

const canonical = (item: unknown): string =>
  JSON.stringify(
    typeof item === 'object' && item !== null
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
      : item,
  );

/** Same items, ignoring order and key order. */
export function sameItems(data: unknown, truth: readonly Item[]): boolean {
  if (!Array.isArray(data) || data.length !== truth.length) return false;
  const left = data.map(canonical).sort();
  const right = truth.map(canonical).sort();
  return left.every((value, i) => value === right[i]);
}

/**
 * Field-level counts: an extracted field is correct when the truth item with the same key
 * field holds the same value (an item whose key is wrong has every field wrong); a truth field
 * is recalled when the first extracted item with its key holds its value.
 */
export function scoreFields(
  data: unknown,
  truth: readonly Item[],
  keyField: string,
  fields: readonly string[],
): FieldScore {
  const items = (Array.isArray(data) ? data : []).filter(
    (item): item is Record<string, unknown> => typeof item === 'object' && item !== null,
  );
  const byKey = new Map(truth.map((item) => [String(item[keyField]), item]));
  let extractedFields = 0;
  let correctFields = 0;
  for (const item of items) {
    const match = byKey.get(String(item[keyField]));
    for (const field of fields) {
      if (item[field] === undefined) continue;
      extractedFields++;
      if (match && match[field] === item[field]) correctFields++;
    }
  }
  let truthFields = 0;
  let recalledFields = 0;
  for (const want of truth) {
    const got = items.find((item) => String(item[keyField]) === String(want[keyField]));
    for (const field of fields) {
      if (want[field] === undefined) continue;
      truthFields++;
      if (got && got[field] === want[field]) recalledFields++;
    }
  }
  return { extractedFields, correctFields, truthFields, recalledFields };
}

function outcomeOf(
  scenario: AdversarialScenario,
  page: GeneratedPage,
  index: number,
  out: RunExtractionOutput,
): PageOutcome {
  const { result } = out;
  const exact = sameItems(result.data, page.truth);
  const replayed = result.method === 'replay';
  return {
    kind: scenario.kind,
    label: scenario.label,
    page: index + 1,
    url: page.url,
    method: result.method,
    replayed,
    checked: result.replay?.checked ?? false,
    recipeId: result.replay?.recipeId ?? null,
    warnings: result.warnings,
    isPartial: result.isPartial,
    exact,
    score: scoreFields(result.data, page.truth, scenario.keyField, scenario.fields),
    tokens: result.contentStats.inputTokens + result.contentStats.outputTokens,
    silentlyWrong: replayed && !exact && result.warnings.length === 0 && !result.isPartial,
    modelOnly: null,
  };
}

export interface RunScenarioOptions {
  store: AdversarialStore;
  /** A tenant of its own: strategies are per tenant, so scenarios never see each other's. */
  tenantId: string;
  /** Also run every later page with no strategy (the model path), for exactness and tokens. */
  modelOnly?: boolean;
}

export async function runScenario(
  scenario: AdversarialScenario,
  options: RunScenarioOptions,
): Promise<ScenarioOutcome> {
  const known = scenario.pages.flatMap((page) => page.shown);
  const service = new ExtractionService({
    llm: knownItemsModel(known),
    store: options.store,
    sleep: async () => {},
  });
  const extract = (page: GeneratedPage, tenantId: string) =>
    service.run({
      tenantId,
      taskId: null,
      context: { tenantId },
      url: page.url,
      html: page.html,
      request: { query: scenario.query, outputSchema: scenario.schema },
      applySelector: true,
    });
  const [first, ...rest] = scenario.pages as [GeneratedPage, ...GeneratedPage[]];
  const learnOut = await extract(first, options.tenantId);
  const learn = outcomeOf(scenario, first, 0, learnOut);
  const id = learnOut.result.extractionId;
  const strategy = id ? await options.store.extractionStrategies.get(options.tenantId, id) : null;
  const later: PageOutcome[] = [];
  for (const [i, page] of rest.entries()) {
    const outcome = outcomeOf(scenario, page, i + 1, await extract(page, options.tenantId));
    if (options.modelOnly) {
      const alone = await extract(page, `${options.tenantId}:model-only:${i + 1}`);
      outcome.modelOnly = {
        exact: sameItems(alone.result.data, page.truth),
        tokens: alone.result.contentStats.inputTokens + alone.result.contentStats.outputTokens,
      };
    }
    later.push(outcome);
  }
  const final = id ? await options.store.extractionStrategies.get(options.tenantId, id) : null;
  const host = new URL(first.url).host;
  const strategies = (await options.store.extractionStrategies.listByDomain(options.tenantId, host))
    .length;
  return { scenario, learned: !!strategy?.replay, learn, later, final, strategies };
}

export async function runScenarios(
  scenarios: readonly AdversarialScenario[],
  options: Omit<RunScenarioOptions, 'tenantId'> & { tenantPrefix?: string },
): Promise<ScenarioOutcome[]> {
  const outcomes: ScenarioOutcome[] = [];
  for (const [i, scenario] of scenarios.entries()) {
    const tenantId = `${options.tenantPrefix ?? 'adversarial'}-${i}`;
    outcomes.push(await runScenario(scenario, { ...options, tenantId }));
  }
  return outcomes;
}
