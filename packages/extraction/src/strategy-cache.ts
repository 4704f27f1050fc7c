// The extraction strategy cache (docs/specs.md, "the strategy cache") over the store:
// tenant-scoped, persistent, and shared by every task of the tenant, so what was learned on one
// page helps on the next one and in later tasks. A strategy is keyed by URL glob, schema and
// selector; its id is the `extractionId` the model passes back to reuse it.
import { hostOf } from '@tandem/contracts';
import type { ExtractionStrategy, Store } from '@tandem/store';
import { matchesUrl, urlPatternFor } from './url-pattern';

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
}

const successRate = (s: ExtractionStrategy): number =>
  (s.successCount + 1) / (s.successCount + s.failureCount + 2);
