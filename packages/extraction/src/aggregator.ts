// Multi-page aggregation (docs/specs.md, "error recovery and aggregation"): every result stored
// under one extractionId in a task merges into one dataset, duplicates removed. Rebuilt from the
// stored results on demand rather than kept in memory, so a server restart or a second server loses
// nothing.
import { EXTRACTION_LIMITS, type ExtractionAggregate } from '@tandem/contracts';
import type { ExtractionResultRecord } from '@tandem/store';
import { deepMerge, dedupe, itemCount, mergeChunkData, shapeOfData } from './merge';

export class ExtractionAggregator {
  private readonly results: ExtractionResultRecord[] = [];

  constructor(readonly extractionId: string) {}

  add(result: ExtractionResultRecord): void {
    this.results.push(result);
  }

  get pages(): number {
    return new Set(this.results.map((r) => r.sourceUrl ?? r.id)).size;
  }

  /** The merged data: arrays concatenated and deduplicated, objects deep-merged, text joined. */
  data(): unknown {
    const datas = this.results.map((r) => r.data);
    const shape = shapeOfData(datas.find((data) => data !== null && data !== undefined));
    if (shape === 'array') return dedupe(datas.flatMap((d) => (Array.isArray(d) ? d : []))).items;
    if (shape === 'object') return datas.reduce<unknown>((merged, d) => deepMerge(merged, d), {});
    return mergeChunkData(
      this.results.map((r) => ({ data: r.data, context: r.sourceUrl ?? '' })),
      'text',
    );
  }

  /** "40 unique items from 2 pages, extraction_id=…": what the model reads, never the data. */
  summary(data = this.data()): string {
    const items = itemCount(data);
    const pages = this.pages;
    const what =
      items === null
        ? `data from ${pages} ${pages === 1 ? 'page' : 'pages'}`
        : `${items} unique ${items === 1 ? 'item' : 'items'} from ${pages} ${pages === 1 ? 'page' : 'pages'}`;
    return `${what}, extraction_id=${this.extractionId}`;
  }

  aggregate(): ExtractionAggregate {
    const data = this.data();
    const items = itemCount(data);
    const truncated = Array.isArray(data) && data.length > EXTRACTION_LIMITS.resultItems;
    const last = this.results[this.results.length - 1];
    return {
      extractionId: this.extractionId,
      data: truncated ? data.slice(0, EXTRACTION_LIMITS.resultItems) : data,
      items,
      pages: Math.max(1, this.pages),
      isPartial: this.results.some((r) => r.isPartial),
      schemaUsed: last?.schemaUsed ?? null,
      summary: this.summary(data),
      truncated,
    };
  }
}

/** Aggregates of a task's results, in the order their extractions started. */
export function aggregateResults(
  results: readonly ExtractionResultRecord[],
): ExtractionAggregator[] {
  const byId = new Map<string, ExtractionAggregator>();
  for (const result of results) {
    const key = result.extractionId ?? result.id;
    let aggregator = byId.get(key);
    if (!aggregator) {
      aggregator = new ExtractionAggregator(key);
      byId.set(key, aggregator);
    }
    aggregator.add(result);
  }
  return [...byId.values()];
}
