// Aggregation (docs/specs.md, "error recovery and aggregation"): three extractions under one
// extraction_id merge without duplicates, and the model reads a summary of counts, never the data.
import type { ExtractionResultRecord } from '@tandem/store';
import { describe, expect, it } from 'vitest';
import { aggregateResults, ExtractionAggregator } from './aggregator';

const result = (
  id: string,
  extractionId: string | null,
  data: unknown,
  sourceUrl: string,
  isPartial = false,
): ExtractionResultRecord => ({
  id,
  tenantId: 't1',
  taskId: 'task',
  extractionId,
  query: 'products',
  sourceUrl,
  data,
  schemaUsed: { type: 'array' },
  isPartial,
  method: 'model',
  contentStats: {
    sourceChars: 1,
    markdownChars: 1,
    chunks: 1,
    failedChunks: 0,
    structuralContext: [],
    items: Array.isArray(data) ? data.length : null,
    modelCalls: 1,
    inputTokens: 1,
    outputTokens: 1,
    costMicroUsd: 0,
    durationMs: 1,
  },
  warnings: [],
  errors: [],
  createdAt: '2026-11-24T00:00:00.000Z',
});

describe('ExtractionAggregator', () => {
  it('merges three pages with duplicates removed and says so in one line', () => {
    const aggregator = new ExtractionAggregator('abc');
    aggregator.add(result('1', 'abc', [{ n: 1 }, { n: 2 }], 'http://x/?page=1'));
    aggregator.add(result('2', 'abc', [{ n: 2 }, { n: 3 }], 'http://x/?page=2'));
    aggregator.add(result('3', 'abc', [{ n: 4 }], 'http://x/?page=3', true));
    expect(aggregator.data()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect(aggregator.summary()).toBe('4 unique items from 3 pages, extraction_id=abc');
    expect(aggregator.aggregate()).toMatchObject({
      items: 4,
      pages: 3,
      isPartial: true,
      truncated: false,
    });
  });

  it('groups a task’s results by extractionId, and a result without one on its own', () => {
    const groups = aggregateResults([
      result('1', 'a', [{ n: 1 }], 'http://x/1'),
      result('2', null, 'some text', 'http://x/2'),
      result('3', 'a', [{ n: 2 }], 'http://x/3'),
    ]);
    expect(groups.map((g) => g.extractionId)).toEqual(['a', '2']);
    expect(groups[0]?.data()).toEqual([{ n: 1 }, { n: 2 }]);
    expect(groups[1]?.summary()).toBe('data from 1 page, extraction_id=2');
  });

  it('deep-merges object data across pages', () => {
    const aggregator = new ExtractionAggregator('o');
    aggregator.add(result('1', 'o', { title: 'A', tags: ['x'] }, 'http://x/1'));
    aggregator.add(result('2', 'o', { price: 3, tags: ['y'] }, 'http://x/2'));
    expect(aggregator.data()).toEqual({ title: 'A', tags: ['x', 'y'], price: 3 });
  });

  it('caps the data carried in a response and says it did', () => {
    const aggregator = new ExtractionAggregator('big');
    aggregator.add(
      result(
        '1',
        'big',
        Array.from({ length: 700 }, (_, n) => ({ n })),
        'http://x/1',
      ),
    );
    const aggregate = aggregator.aggregate();
    expect(aggregate.items).toBe(700);
    expect(aggregate.truncated).toBe(true);
    expect((aggregate.data as unknown[]).length).toBe(500);
  });
});
