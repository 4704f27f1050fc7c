// Structured extraction: an extraction run over a page, the strategies learned per URL pattern
// (with their replay recipes), and the results each extraction produced.
import type { ContentStats, ExtractionError, ExtractionMethod } from '@tandem/contracts';
import { newId } from '../../shared';

export interface Extraction {
  id: string;
  tenantId: string;
  taskId: string | null;
  url: string;
  /** JSON Schema the data was validated against. */
  schema: Record<string, unknown>;
  data: unknown;
  status: 'pending' | 'completed' | 'failed';
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * What structured extraction learns about a page shape (docs/specs.md, "the strategy cache"): how
 * to extract one schema from the pages a URL glob covers, and (once learned) a selector recipe that
 * replays it with zero model tokens. Strategies are per schema and per selector: the same pages
 * read through another schema or another subtree are another strategy.
 */
export interface ExtractionStrategy {
  id: string;
  tenantId: string;
  /** Host of the pages ("127.0.0.1:4000"): the indexed lookup key. */
  domain: string;
  /** Glob over the whole URL ("http://127.0.0.1:4000/catalog/*"); the caller does the matching. */
  urlPattern: string;
  /** Null (the whole page) is a value of the key like any selector. */
  cssSelector: string | null;
  outputSchema: Record<string, unknown>;
  /** Hash of outputSchema (strategies are per schema). */
  schemaHash: string;
  queryTemplate: string;
  /** Learned selector recipe, opaque JSON to the store; null until one is learned. */
  replay: Record<string, unknown> | null;
  successCount: number;
  failureCount: number;
  lastUsed: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * One recipe of a strategy's replay list as the store sees it: an id, how often it replayed and
 * when it was last used (ISO); everything else in it is opaque to the store.
 */
export type ExtractionRecipeEntry = Record<string, unknown> & { id: string };

/** One stored result: one extraction of one page (docs/specs.md, "extraction overhaul"). */
export interface ExtractionResultRecord {
  id: string;
  tenantId: string;
  /** Null for POST /api/extract, which runs outside any task. */
  taskId: string | null;
  /** Aggregate key (a strategy id): a task's results with the same key merge across pages. */
  extractionId: string | null;
  query: string;
  sourceUrl: string | null;
  /** JSON: an object, an array or (without a usable schema) a string. */
  data: unknown;
  schemaUsed: Record<string, unknown> | null;
  isPartial: boolean;
  method: ExtractionMethod;
  contentStats: ContentStats;
  warnings: string[];
  errors: ExtractionError[];
  createdAt: string;
}

export type NewExtraction = Pick<Extraction, 'url' | 'schema'> &
  Partial<Pick<Extraction, 'id' | 'taskId' | 'data' | 'status' | 'error'>>;

/** What upsert takes: everything but identity, counters and times; replay is optional. */
export type NewExtractionStrategy = Omit<
  ExtractionStrategy,
  | 'id'
  | 'tenantId'
  | 'successCount'
  | 'failureCount'
  | 'lastUsed'
  | 'createdAt'
  | 'updatedAt'
  | 'replay'
> & { replay?: Record<string, unknown> | null };

export type NewExtractionResult = Omit<ExtractionResultRecord, 'id' | 'tenantId' | 'createdAt'> & {
  id?: string;
};

export interface ExtractionRepository {
  create(tenantId: string, input: NewExtraction): Promise<Extraction>;
  get(tenantId: string, id: string): Promise<Extraction | null>;
  /** Newest first. */
  list(tenantId: string, options?: { taskId?: string; limit?: number }): Promise<Extraction[]>;
  update(
    tenantId: string,
    id: string,
    patch: Partial<Pick<Extraction, 'data' | 'status' | 'error'>>,
  ): Promise<Extraction | null>;
}

export interface ExtractionStrategyRepository {
  /**
   * Inserts (counts 0, replay null unless given), or, for the tenant's strategy with the same
   * (urlPattern, schemaHash, cssSelector), replaces queryTemplate, outputSchema, domain,
   * lastUsed and updatedAt, and replay only when `input.replay !== undefined`, keeping its id,
   * counts and createdAt.
   */
  upsert(tenantId: string, input: NewExtractionStrategy, now?: string): Promise<ExtractionStrategy>;
  get(tenantId: string, id: string): Promise<ExtractionStrategy | null>;
  /** Strategies of a domain, most recently used first (then id, descending); default 50. */
  listByDomain(
    tenantId: string,
    domain: string,
    options?: { limit?: number },
  ): Promise<ExtractionStrategy[]>;
  /** Adds one success or failure and sets lastUsed (and updatedAt) to `now`. */
  recordResult(
    tenantId: string,
    id: string,
    success: boolean,
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  /** Sets (or, with null, forgets) the learned recipe; updatedAt moves, lastUsed does not. */
  setReplay(
    tenantId: string,
    id: string,
    replay: Record<string, unknown> | null,
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  /**
   * The replay as a list of recipes, `{ recipes: [{ id, replays, used, … }] }` (the rest of each
   * entry is opaque): each change below is one atomic write, so concurrent replays all count and
   * a retire is never undone by a count written from an older read. updatedAt moves, lastUsed
   * does not. Each returns the strategy after the write, or null when there is no such strategy
   * (add) or it holds no recipe `recipeId` (count, retire).
   *
   * addRecipe: puts `entry` in (replacing an entry with its id, with `replays` 0 and `used` =
   * now), then keeps the `keep` most recently used (`used`, newest first). A replay that is not
   * such a list (null, or an older single recipe) is replaced by a list of `entry` alone.
   */
  addRecipe(
    tenantId: string,
    id: string,
    entry: ExtractionRecipeEntry,
    keep: number,
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  /** One more replay of recipe `recipeId` (`replays` + 1), used now. */
  countRecipeReplay(
    tenantId: string,
    id: string,
    recipeId: string,
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  /** Removes recipe `recipeId` from the list, leaving the others as they are. */
  retireRecipe(
    tenantId: string,
    id: string,
    recipeId: string,
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  /**
   * Moves the strategy to another URL pattern when it still has `from` (compare and set: two
   * widenings from one read do not undo each other); null when there is no such strategy, its
   * pattern is no longer `from`, or another strategy of the tenant already has `to` with the same
   * schemaHash and cssSelector. updatedAt moves, lastUsed does not.
   */
  setUrlPattern(
    tenantId: string,
    id: string,
    change: { from: string; to: string },
    now?: string,
  ): Promise<ExtractionStrategy | null>;
  delete(tenantId: string, id: string): Promise<boolean>;
}

export interface ExtractionResultRepository {
  create(
    tenantId: string,
    input: NewExtractionResult,
    now?: string,
  ): Promise<ExtractionResultRecord>;
  get(tenantId: string, id: string): Promise<ExtractionResultRecord | null>;
  /** Oldest first (createdAt, then id); default limit 1000, at most 10,000. */
  listByTask(
    tenantId: string,
    taskId: string,
    options?: { extractionId?: string; limit?: number },
  ): Promise<ExtractionResultRecord[]>;
}

export function newExtractionRecord(
  tenantId: string,
  input: NewExtraction,
  now: string,
): Extraction {
  return {
    id: input.id ?? newId(),
    tenantId,
    taskId: input.taskId ?? null,
    url: input.url,
    schema: input.schema,
    data: input.data ?? null,
    status: input.status ?? 'pending',
    error: input.error ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The strategy an upsert inserts when none exists yet. Counts start at 0: learning a strategy
 * is not yet a successful extraction. Fields are copied one by one so stray keys of the
 * caller's object never reach a row or document.
 */
export function newExtractionStrategyRecord(
  tenantId: string,
  input: NewExtractionStrategy,
  now: string,
): ExtractionStrategy {
  return {
    id: newId(),
    tenantId,
    domain: input.domain,
    urlPattern: input.urlPattern,
    cssSelector: input.cssSelector,
    outputSchema: input.outputSchema,
    schemaHash: input.schemaHash,
    queryTemplate: input.queryTemplate,
    replay: input.replay ?? null,
    successCount: 0,
    failureCount: 0,
    lastUsed: now,
    createdAt: now,
    updatedAt: now,
  };
}

/** Every field of a result is given; only the id (unless the caller chose one) and time are not. */
export function newExtractionResultRecord(
  tenantId: string,
  input: NewExtractionResult,
  now: string,
): ExtractionResultRecord {
  return {
    id: input.id ?? newId(),
    tenantId,
    taskId: input.taskId,
    extractionId: input.extractionId,
    query: input.query,
    sourceUrl: input.sourceUrl,
    data: input.data,
    schemaUsed: input.schemaUsed,
    isPartial: input.isPartial,
    method: input.method,
    contentStats: input.contentStats,
    warnings: input.warnings,
    errors: input.errors,
    createdAt: now,
  };
}
