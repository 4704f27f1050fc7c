// The extraction repositories' query documents, evaluated by mingo on stored-shape documents.
import { describe, expect, it } from 'vitest';
import { MingoCollection } from '../../mongo/queries/mingo-collection';
import {
  extractionsQuery,
  extractionUpdate,
  resultsByTaskQuery,
  strategiesByDomainQuery,
  strategyReplayUpdate,
  strategyResultUpdate,
  strategyUpsert,
} from './mongo-queries';
import type { ExtractionDoc, ExtractionResultDoc, ExtractionStrategyDoc } from './mongo-schema';
import type { ExtractionStrategy } from './record';

const at = (iso: string) => new Date(iso);

describe('extractions and strategies', () => {
  it('extractions newest first (of a task); patches; results of a task oldest first by extractionId', () => {
    const extraction = (id: string, createdAt: string, taskId: string | null): ExtractionDoc => ({
      id,
      tenantId: 't1',
      taskId,
      url: 'https://a.example/',
      schema: {},
      data: null,
      status: 'pending',
      error: null,
      createdAt: at(createdAt),
      updatedAt: at(createdAt),
    });
    const extractions = new MingoCollection([
      extraction('e1', '2025-01-01T00:00:00Z', 'task-1'),
      extraction('e2', '2025-01-02T00:00:00Z', null),
    ]);
    expect(extractions.find(extractionsQuery('t1', {}, 10)).map((e) => e.id)).toEqual(['e2', 'e1']);
    expect(
      extractions.find(extractionsQuery('t1', { taskId: 'task-1' }, 10)).map((e) => e.id),
    ).toEqual(['e1']);
    const now = at('2025-02-01T00:00:00Z');
    expect(
      extractions.findOneAndUpdate(
        extractionUpdate('t1', 'e1', { data: [1], status: 'completed' }, now),
      ),
    ).toMatchObject({ data: [1], status: 'completed', error: null, updatedAt: now });

    const result = (id: string, extractionId: string, createdAt: string): ExtractionResultDoc => ({
      id,
      tenantId: 't1',
      taskId: 'task-1',
      extractionId,
      query: 'q',
      sourceUrl: null,
      data: null,
      schemaUsed: null,
      isPartial: false,
      method: 'model',
      contentStats: {},
      warnings: [],
      extractionErrors: [],
      createdAt: at(createdAt),
    });
    const results = new MingoCollection([
      result('r2', 'x1', '2025-01-02T00:00:00Z'),
      result('r1', 'x1', '2025-01-01T00:00:00Z'),
      result('r3', 'x2', '2025-01-01T00:00:00Z'),
    ]);
    expect(
      results.find(resultsByTaskQuery('t1', 'task-1', { extractionId: 'x1' }, 10)).map((r) => r.id),
    ).toEqual(['r1', 'r2']);
    expect(results.find(resultsByTaskQuery('t1', 'task-1', {}, 2)).map((r) => r.id)).toEqual([
      'r1',
      'r3',
    ]);
  });

  it('a strategy is learned once per (url pattern, schema, selector): relearning keeps id, counters and replay', () => {
    const strategies = new MingoCollection<ExtractionStrategyDoc>();
    const learned = (over: Partial<ExtractionStrategy>): ExtractionStrategy => ({
      id: 'new-id',
      tenantId: 't1',
      domain: 'shop.example',
      urlPattern: 'https://shop.example/p/*',
      cssSelector: null,
      outputSchema: { type: 'array' },
      schemaHash: 'h1',
      queryTemplate: 'products',
      replay: null,
      successCount: 0,
      failureCount: 0,
      lastUsed: '2025-01-01T00:00:00Z',
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: '2025-01-01T00:00:00Z',
      ...over,
    });
    const t1 = at('2025-01-01T00:00:00Z');
    const first = strategies.findOneAndUpdate(
      strategyUpsert(learned({ id: 's1', replay: { rows: 'li' } }), true, t1),
    );
    expect(first).toMatchObject({
      id: 's1',
      cssSelector: null,
      replay: { rows: 'li' },
      successCount: 0,
    });
    strategies.findOneAndUpdate(strategyResultUpdate('t1', 's1', true, t1));
    const t2 = at('2025-02-01T00:00:00Z');
    const again = strategies.findOneAndUpdate(
      strategyUpsert(learned({ id: 'other', queryTemplate: 'items' }), false, t2),
    );
    expect(again).toMatchObject({
      id: 's1',
      queryTemplate: 'items',
      replay: { rows: 'li' },
      successCount: 1,
      lastUsed: t2,
    });
    // Another selector is another strategy, and one learned without replay has none.
    const scoped = strategies.findOneAndUpdate(
      strategyUpsert(learned({ id: 's2', cssSelector: '#main' }), false, t2),
    );
    expect(scoped).toMatchObject({ id: 's2', cssSelector: '#main', replay: null });
    expect(
      strategies.find(strategiesByDomainQuery('t1', 'shop.example', 10)).map((s) => s.id),
    ).toEqual(['s2', 's1']);
    expect(
      strategies.findOneAndUpdate(
        strategyReplayUpdate('t1', 's2', { rows: 'tr', gone: undefined }, t2),
      )?.replay,
    ).toEqual({ rows: 'tr' });
  });
});
