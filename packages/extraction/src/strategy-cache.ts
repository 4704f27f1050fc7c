// The extraction strategy cache (docs/specs.md, "the strategy cache") over the store:
// tenant-scoped, persistent, and shared by every task of the tenant, so what was learned on one
// page helps on the next one and in later tasks. A strategy is keyed by URL glob, schema and
// selector; its id is the `extractionId` the model passes back to reuse it.
import { hostOf } from '@tandem/contracts';
import type { ExtractionRecipeEntry, ExtractionStrategy, Store } from '@tandem/store';
import { MAX_RECIPES } from './recipe-list';
import { matchesUrl, urlPatternFor, widenedPattern } from './url-pattern';

export interface RegisterStrategyInput {
  url: string;
  cssSelector: string | null;
  outputSchema: Record<string, unknown>;
  schemaHash: string;
  queryTemplate: string;
  replay?: Record<string, unknown> | null;
}

export class ExtractionCache {
  constructor(private readonly store: Pick<Store, 'extractionStrategies'>) {}

  get(tenantId: string, id: string): Promise<ExtractionStrategy | null> {
    return this.store.extractionStrategies.get(tenantId, id);
  }

  register(tenantId: string, input: RegisterStrategyInput): Promise<ExtractionStrategy> {
    return this.store.extractionStrategies.upsert(tenantId, {
      domain: hostOf(input.url) ?? '',
      urlPattern: urlPatternFor(input.url),
      cssSelector: input.cssSelector,
      outputSchema: input.outputSchema,
      schemaHash: input.schemaHash,
      queryTemplate: input.queryTemplate,
      ...(input.replay !== undefined ? { replay: input.replay } : {}),
    });
  }

  /**
   * Strategies whose glob matches `url`, best first: those that worked more often than they
   * failed, then the most recently used. The spec's `find_matching` (docs/specs.md, "the strategy
   * cache").
   */
  async findMatching(tenantId: string, url: string): Promise<ExtractionStrategy[]> {
    const host = hostOf(url);
    if (!host) return [];
    const candidates = await this.store.extractionStrategies.listByDomain(tenantId, host);
    return candidates
      .filter((strategy) => matchesUrl(strategy.urlPattern, url))
      .sort((a, b) => successRate(b) - successRate(a) || b.lastUsed.localeCompare(a.lastUsed));
  }

  recordResult(tenantId: string, id: string, success: boolean): Promise<unknown> {
    return this.store.extractionStrategies.recordResult(tenantId, id, success);
  }

  setReplay(
    tenantId: string,
    id: string,
    replay: Record<string, unknown> | null,
  ): Promise<unknown> {
    return this.store.extractionStrategies.setReplay(tenantId, id, replay);
  }

  /** A recipe for one more layout: the least recently used beyond MAX_RECIPES is dropped. */
  addRecipe(tenantId: string, id: string, entry: ExtractionRecipeEntry): Promise<unknown> {
    return this.store.extractionStrategies.addRecipe(tenantId, id, entry, MAX_RECIPES);
  }

  /** One more replay of one recipe, atomically: concurrent replays all count. */
  countRecipeReplay(
    tenantId: string,
    id: string,
    recipeId: string,
  ): Promise<ExtractionStrategy | null> {
    return this.store.extractionStrategies.countRecipeReplay(tenantId, id, recipeId);
  }

  /** Retires the one recipe the model disagreed with; the strategy's others stay. */
  retireRecipe(tenantId: string, id: string, recipeId: string): Promise<unknown> {
    return this.store.extractionStrategies.retireRecipe(tenantId, id, recipeId);
  }

  /**
   * Strategies for this schema and selector that do not match `url` but would, widened at the
   * path segments where it differs (same origin, same number of segments): the ones whose
   * recipe may be shown to read this page too. Best first, as findMatching.
   */
  async widenable(
    tenantId: string,
    url: string,
    schemaHash: string,
    cssSelector: string | null,
  ): Promise<ExtractionStrategy[]> {
    const host = hostOf(url);
    if (!host) return [];
    const candidates = await this.store.extractionStrategies.listByDomain(tenantId, host);
    return candidates
      .filter(
        (s) =>
          s.schemaHash === schemaHash &&
          s.cssSelector === cssSelector &&
          !matchesUrl(s.urlPattern, url) &&
          widenedPattern(s.urlPattern, url) !== null,
      )
      .sort((a, b) => successRate(b) - successRate(a) || b.lastUsed.localeCompare(a.lastUsed));
  }

  /**
   * Widens the strategy's pattern to cover `url` (widenedPattern): called once its recipe read
   * this page as the model did. Compare and set against the pattern it was read with, retried
   * once from a fresh read when another widening came first; null when it could not be widened
   * (another strategy holds that pattern), and the caller keeps a strategy of its own.
   */
  async widen(
    tenantId: string,
    strategy: ExtractionStrategy,
    url: string,
  ): Promise<ExtractionStrategy | null> {
    let current: ExtractionStrategy | null = strategy;
    for (let attempt = 0; attempt < 2 && current; attempt++) {
      const to = widenedPattern(current.urlPattern, url);
      if (to === null) return null;
      if (to === current.urlPattern) return current;
      const moved = await this.store.extractionStrategies.setUrlPattern(tenantId, current.id, {
        from: current.urlPattern,
        to,
      });
      if (moved) return moved;
      current = await this.get(tenantId, current.id);
    }
    return null;
  }
}

const successRate = (s: ExtractionStrategy): number =>
  (s.successCount + 1) / (s.successCount + s.failureCount + 2);
