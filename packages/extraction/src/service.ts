// One extraction from end to end (docs/specs.md, "extraction overhaul" + replay): plan (strategy,
// schema, selector) → content → the strategy's selectors when they still fit this page (zero model
// tokens; a recipe's first replay and every Nth are cross-checked by the model on a slice of the
// page, replay-check.ts), else the chunked sub-agent → validation → strategy learned or updated → stored
// result → the task's aggregate for the extractionId. The agent's extraction node and
// POST /api/extract both call `run`; neither puts the data into a prompt.
import {
  DEFAULT_INPUT_LIMITS,
  ownData,
  type ExtractionAggregate,
  type ExtractionError,
  type ExtractionMethod,
  type ExtractionReplay,
  type ExtractionResult,
  type ExtractRequest,
  type InputLimits,
} from '@tandem/contracts';
import type { ExtractionResultRecord, ExtractionStrategy, Store } from '@tandem/store';
import { aggregateResults } from './aggregator';
import {
  findDataStrategy,
  learnDataStrategy,
  replayDataStrategy,
  type DataExamples,
  type DataReplay,
  type LearnedStrategy,
  type ReplayedStrategy,
} from './data-strategy';
import type { ExtractionCallContext, ExtractionLlm } from './llm';
import { itemCount } from './merge';
import type { OnwardAsk } from './page-onward';
import { inlinePageReader, type PageRead, type PageReader } from './page-reader';
import { planExtraction, type ExtractionPlan } from './plan';
import { queryTemplate } from './prompt';
import { checkDue, checkSlice, compareCheck, DEFAULT_REPLAY_CHECK_EVERY } from './replay-check';
import {
  countReplay,
  learnFrom,
  readContent,
  recipeStates,
  replayOutcome,
  retireRecipe,
  type RecipeState,
} from './replay-step';
import { ExtractionCache } from './strategy-cache';
import { ExtractionSubAgent, type ExtractionConfig } from './sub-agent';

export interface ExtractionServiceDeps {
  llm: ExtractionLlm;
  store: Pick<Store, 'extractionResults' | 'extractionStrategies'>;
  config?: Partial<ExtractionConfig>;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Where pages are parsed, replayed and learned from: the server's worker pool. By default on
   * the calling thread (tests, benches).
   */
  pages?: PageReader;
  /** The outputSchema budgets (SCHEMA_MAX_DEPTH, SCHEMA_MAX_NODES); the defaults otherwise. */
  limits?: Pick<InputLimits, 'schemaMaxDepth' | 'schemaMaxNodes'>;
  /**
   * A recipe's first replay, then every Nth (EXTRACTION_REPLAY_CHECK_EVERY), is cross-checked by
   * the model on a slice of the page; 10 by default.
   */
  replayCheckEvery?: number;
}

export interface RunExtractionInput {
  tenantId: string;
  taskId: string | null;
  context: ExtractionCallContext;
  url: string | null;
  html?: string;
  markdown?: string;
  request: ExtractRequest;
  /**
   * Apply the selector to `html` here (POST /api/extract). The extension's snapshot is already
   * scoped by it, so the agent passes false.
   */
  applySelector: boolean;
  /** Also tell whether the page leads on past it, from the same parse (PageReadRequest.onward). */
  onward?: OnwardAsk;
  signal?: AbortSignal;
}

export interface RunExtractionOutput {
  result: ExtractionResult;
  record: ExtractionResultRecord;
  /** The task's results under this extractionId merged (computed once, here). */
  aggregate: ExtractionAggregate | null;
  /** One line for the model: counts and ids, never the data. */
  summary: string;
  /** When the input asked (`onward`): what of the page leads on past it, or null. */
  onward?: string | null;
}

/** What the replay or the model produced, before it is stored. */
export interface Produced {
  data: unknown;
  method: ExtractionMethod;
  isPartial: boolean;
  errors: ExtractionError[];
  warnings: string[];
  chunks: number;
  failedChunks: number;
  structuralContext: string[];
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costMicroUsd: number;
  /** A replay: which recipe, what the spot check verified, whether the model cross-checked it. */
  replay?: ExtractionReplay;
  /** A replay the model cross-checked: the characters of the slice it read. */
  checkChars?: number;
}

export class ExtractionService {
  readonly cache: ExtractionCache;
  readonly subAgent: ExtractionSubAgent;
  private readonly pages: PageReader;

  constructor(private readonly deps: ExtractionServiceDeps) {
    this.cache = new ExtractionCache(deps.store);
    this.subAgent = new ExtractionSubAgent(deps.llm, deps.config, deps.sleep);
    this.pages = deps.pages ?? inlinePageReader;
  }

  /**
   * A strategy learned from data read off this page some other way (a collecting task's
   * items), kept under `query`, and what it reads back here (data-strategy.ts).
   */
  learnData(input: DataExamples): Promise<LearnedStrategy> {
    return learnDataStrategy(this.cache, this.pages, input);
  }

  /** A strategy's selectors replayed on this page with no model (data-strategy.ts). */
  replayData(input: DataReplay): Promise<ReplayedStrategy> {
    return replayDataStrategy(this.cache, this.pages, input);
  }

  /** The tenant's strategy kept under `query` for a page at `url`, or null. */
  findData(tenantId: string, url: string, query: string): Promise<ExtractionStrategy | null> {
    return findDataStrategy(this.cache, tenantId, url, query);
  }

  async run(input: RunExtractionInput): Promise<RunExtractionOutput> {
    const started = performance.now();
    const plan = await planExtraction(
      this.cache,
      input.tenantId,
      input.request,
      input.url,
      this.deps.limits ?? DEFAULT_INPUT_LIMITS,
    );
    const states = recipeStates(plan);
    const every = this.deps.replayCheckEvery ?? DEFAULT_REPLAY_CHECK_EVERY;
    // Which recipe will fit is known only once the page is read: the Markdown for a check is
    // rendered when any of them is due, and the check runs when the one that replayed is.
    const render = states.some((state) => checkDue(state.replays, every));
    const content = await readContent(this.pages, input, plan, render);
    const state = content.replayed ? (states[content.replayed.recipe] ?? null) : null;
    const check = state !== null && checkDue(state.replays, every);
    const replayed = await replayOutcome(this.cache, input.tenantId, plan, content, state);
    let produced = replayed.produced;
    if (produced && state) {
      produced = check ? await this.crossCheck(plan, content, input, produced, state) : produced;
      if (produced.method === 'replay') await countReplay(this.cache, input.tenantId, plan, state);
    }
    produced ??= await this.viaModel(plan, content, input);
    produced.warnings.unshift(...plan.warnings, ...content.warnings, ...replayed.warnings);
    const strategy = await learnFrom(this.cache, this.pages, input, plan, produced);
    const record = await this.store(input, plan, content, produced, strategy, started);
    const out = await this.finish(input, record, produced);
    return content.onward !== undefined ? { ...out, onward: content.onward } : out;
  }

  /**
   * The model reads a slice of the replayed page (replay-check.ts). Agreement marks the replay
   * checked; a disagreement retires the recipe that replayed (the strategy's recipes for its
   * other layouts stay), and the model reads the whole page instead (learnFrom then learns a new
   * recipe from its answer). Either way the check's usage is the result's, billed as
   * EXTRACTION_CHECK.
   */
  private async crossCheck(
    plan: ExtractionPlan,
    content: PageRead,
    input: RunExtractionInput,
    replayed: Produced,
    state: RecipeState,
  ): Promise<Produced> {
    const replay = replayed.replay as ExtractionReplay;
    if (content.markdown === null || !plan.strategy) return replayed;
    const slice = checkSlice(content.markdown, replayed.data);
    const out = await this.subAgent.extract({
      markdown: slice.text,
      query: plan.query,
      schema: plan.schema,
      context: input.context,
      actionType: 'EXTRACTION_CHECK',
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const usage = {
      modelCalls: out.modelCalls,
      inputTokens: out.inputTokens,
      outputTokens: out.outputTokens,
      costMicroUsd: out.costMicroUsd,
    };
    const verdict = out.isPartial
      ? { verdict: 'inconclusive' as const, reason: 'the model call failed' }
      : compareCheck(ownData(out.data), replayed.data, slice.cut);
    if (verdict.verdict !== 'disagree') {
      const evidence =
        verdict.verdict === 'agree'
          ? `the model agreed on the first ${verdict.items} ${verdict.items === 1 ? 'item' : 'items'}`
          : `model cross-check inconclusive: ${verdict.reason}`;
      return {
        ...replayed,
        ...usage,
        checkChars: slice.text.length,
        replay: {
          ...replay,
          evidence: [...replay.evidence, evidence],
          checked: verdict.verdict === 'agree',
        },
      };
    }
    await retireRecipe(this.cache, input.tenantId, plan, state);
    await this.cache.recordResult(input.tenantId, plan.strategy.id, false);
    const model = await this.viaModel(plan, content, input);
    model.warnings.push(
      `The strategy's selectors did not fit this page (the replay disagreed with the model on its first part: ${verdict.reason}); recipe ${state.recipeId} was retired and the model extracted instead.`,
    );
    return {
      ...model,
      modelCalls: model.modelCalls + usage.modelCalls,
      inputTokens: model.inputTokens + usage.inputTokens,
      outputTokens: model.outputTokens + usage.outputTokens,
      costMicroUsd: model.costMicroUsd + usage.costMicroUsd,
    };
  }

  private async viaModel(
    plan: ExtractionPlan,
    content: PageRead,
    input: RunExtractionInput,
  ): Promise<Produced> {
    const out = await this.subAgent.extract({
      markdown: content.markdown ?? '',
      query: plan.query,
      schema: plan.schema,
      context: input.context,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const produced: Produced = { ...out, method: 'model', warnings: [] };
    if (!plan.schema) return produced;
    const parsed = plan.schema.zod.safeParse(ownData(out.data));
    if (parsed.success) return { ...produced, data: parsed.data };
    const message = `The merged data does not match outputSchema: ${parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`)
      .join('; ')}`;
    produced.warnings.push(message);
    produced.errors.push({
      kind: 'validation',
      message,
      chunkIndex: null,
      retries: 0,
      retriesExhausted: true,
      fallbackUsed: false,
    });
    return { ...produced, isPartial: true };
  }

  private store(
    input: RunExtractionInput,
    plan: ExtractionPlan,
    content: PageRead,
    produced: Produced,
    strategy: ExtractionStrategy | null,
    started: number,
  ): Promise<ExtractionResultRecord> {
    return this.deps.store.extractionResults.create(input.tenantId, {
      taskId: input.taskId,
      extractionId: strategy?.id ?? null,
      query: plan.query,
      sourceUrl: input.url,
      data: produced.data,
      schemaUsed: plan.schema?.json ?? null,
      isPartial: produced.isPartial,
      method: produced.method,
      contentStats: {
        sourceChars: content.sourceChars,
        markdownChars:
          produced.method === 'replay'
            ? (produced.checkChars ?? 0)
            : (content.markdown?.length ?? 0),
        chunks: produced.chunks,
        failedChunks: produced.failedChunks,
        structuralContext: produced.structuralContext.filter(Boolean),
        items: itemCount(produced.data),
        modelCalls: produced.modelCalls,
        inputTokens: produced.inputTokens,
        outputTokens: produced.outputTokens,
        costMicroUsd: produced.costMicroUsd,
        durationMs: Math.round(performance.now() - started),
      },
      warnings: produced.warnings,
      errors: produced.errors,
    });
  }

  private async finish(
    input: RunExtractionInput,
    record: ExtractionResultRecord,
    produced: Produced,
  ): Promise<RunExtractionOutput> {
    const result: ExtractionResult = {
      ...toResult(record),
      ...(produced.replay && produced.method === 'replay' ? { replay: produced.replay } : {}),
    };
    let aggregate: ExtractionAggregate | null = null;
    if (input.taskId && record.extractionId) {
      const results = await this.deps.store.extractionResults.listByTask(
        input.tenantId,
        input.taskId,
        { extractionId: record.extractionId },
      );
      aggregate = aggregateResults(results)[0]?.aggregate() ?? null;
    }
    return { result, record, aggregate, summary: summaryLine(record, produced, aggregate) };
  }
}

export function toResult(record: ExtractionResultRecord): ExtractionResult {
  return {
    data: record.data,
    schemaUsed: record.schemaUsed,
    isPartial: record.isPartial,
    sourceUrl: record.sourceUrl,
    contentStats: record.contentStats,
    warnings: record.warnings,
    errors: record.errors,
    method: record.method,
    extractionId: record.extractionId,
  };
}

/** "Extracted 40 items, replayed (0 model tokens). So far: 80 unique items from 2 pages, …" */
export function summaryLine(
  record: ExtractionResultRecord,
  produced: Pick<Produced, 'method' | 'modelCalls' | 'isPartial' | 'replay'>,
  aggregate: Pick<ExtractionAggregate, 'summary'> | null,
): string {
  const items = itemCount(record.data);
  const what = items === null ? 'Extracted the requested data' : `Extracted ${items} items`;
  const how =
    produced.method === 'replay'
      ? produced.replay?.checked
        ? `replayed (checked), with ${produced.modelCalls} model ${produced.modelCalls === 1 ? 'call' : 'calls'} on a slice of the page`
        : produced.modelCalls > 0
          ? `replayed, with ${produced.modelCalls} model ${produced.modelCalls === 1 ? 'call' : 'calls'} for a cross-check that was inconclusive`
          : 'replayed (0 model tokens)'
      : `with ${produced.modelCalls} model ${produced.modelCalls === 1 ? 'call' : 'calls'}`;
  const parts = [
    `${what}${produced.method === 'replay' ? ',' : ''} ${how}${produced.isPartial ? '; PARTIAL: part of the content failed' : ''}.`,
  ];
  if (record.warnings.length > 0) parts.push(`Warnings: ${record.warnings.slice(0, 3).join(' ')}`);
  if (aggregate) {
    parts.push(
      `So far: ${aggregate.summary}. On similar pages extract again with extractionId "${record.extractionId}"; the data is stored, never repeat it.`,
    );
  }
  return parts.join(' ');
}

export { queryTemplate };
