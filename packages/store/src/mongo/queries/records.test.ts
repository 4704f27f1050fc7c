// Task actions, collected items, extractions and their strategies, crawl jobs: their query
// documents, evaluated by mingo.
import { describe, expect, it } from 'vitest';
import type { ExtractionStrategy } from '../../port';
import type {
  CollectedItemDoc,
  ExtractionDoc,
  ExtractionResultDoc,
  ExtractionStrategyDoc,
  KnowledgeJobDoc,
  TaskActionDoc,
} from '../documents';
import { countByTypePipeline, itemKeyFilter, itemsQuery } from './collected-items';
import {
  extractionsQuery,
  extractionUpdate,
  resultsByTaskQuery,
  strategiesByDomainQuery,
  strategyReplayUpdate,
  strategyResultUpdate,
  strategyUpsert,
} from './extractions';
import { jobsQuery, jobUpdate, unfinishedJobsQuery } from './knowledge-jobs';
import { MingoCollection } from './mingo-collection';
import {
  actionsByTaskQuery,
  actionsByTasksQuery,
  actionUpdate,
  lastActionQuery,
} from './task-actions';

const at = (iso: string) => new Date(iso);

describe('task actions', () => {
  const action = (
    id: string,
    taskId: string,
    stepIndex: number,
    createdAt: string,
  ): TaskActionDoc => ({
    id,
    tenantId: 't1',
    taskId,
    stepIndex,
    thought: '',
    action: `click(${id})`,
    expectedOutcome: null,
    beforeState: null,
    verification: null,
    status: 'pending',
    metrics: null,
    createdAt: at(createdAt),
  });
  // Inserted in this order: a and b share step and time, so insertion (_id) orders them.
  const actions = new MingoCollection([
    action('c', 'task-1', 1, '2025-01-01T00:00:02Z'),
    action('a', 'task-1', 0, '2025-01-01T00:00:01Z'),
    action('b', 'task-1', 0, '2025-01-01T00:00:01Z'),
    action('z', 'task-0', 5, '2025-01-01T00:00:00Z'),
  ]);

  it('in step order, insertion order breaking ties; the last one; across tasks by task', () => {
    expect(actions.find(actionsByTaskQuery('t1', 'task-1')).map((a) => a.id)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(actions.findOne(lastActionQuery('t1', 'task-1'))?.id).toBe('c');
    expect(
      actions.find(actionsByTasksQuery('t1', ['task-1', 'task-0', 'task-1'])).map((a) => a.id),
    ).toEqual(['z', 'a', 'b', 'c']);
    expect(actions.findOneAndUpdate(actionUpdate('t1', 'b', { status: 'success' }))?.status).toBe(
      'success',
    );
    expect(actions.findOneAndUpdate(actionUpdate('t2', 'b', { status: 'failed' }))).toBeNull();
  });
});

describe('collected items', () => {
  const item = (seq: number, type: string, uniqueKey: string): CollectedItemDoc => ({
    id: `i${seq}`,
    tenantId: 't1',
    taskId: 'task-1',
    type,
    uniqueKey,
    data: {},
    sourceUrl: null,
    seq,
    createdAt: at('2025-01-01T00:00:00Z'),
  });
  const items = new MingoCollection([
    item(2, 'job', 'b'),
    item(1, 'job', 'a'),
    item(3, 'company', 'a'),
  ]);

  it('pages by seq after afterSeq, of one type; finds by unique key; counts per type', () => {
    expect(items.find(itemsQuery('t1', 'task-1', {}, 10)).map((i) => i.seq)).toEqual([1, 2, 3]);
    expect(items.find(itemsQuery('t1', 'task-1', { afterSeq: 1 }, 1)).map((i) => i.seq)).toEqual([
      2,
    ]);
    expect(
      items.find(itemsQuery('t1', 'task-1', { type: 'company' }, 10)).map((i) => i.seq),
    ).toEqual([3]);
    expect(
      items.findOne({
        filter: itemKeyFilter('t1', { taskId: 'task-1', type: 'job', uniqueKey: 'b' }),
      })?.seq,
    ).toBe(2);
    expect(items.aggregate(countByTypePipeline('t1', 'task-1'))).toEqual([
      { _id: 'company', n: 1 },
      { _id: 'job', n: 2 },
    ]);
  });
});

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

describe('crawl jobs', () => {
  const job = (
    id: string,
    status: KnowledgeJobDoc['status'],
    createdAt: string,
    tenantId = 't1',
  ): KnowledgeJobDoc => ({
    id,
    tenantId,
    userId: null,
    kind: 'crawl',
    url: 'https://docs.example/',
    strategy: 'sitemap',
    maxPages: 10,
    maxDepth: 2,
    domain: 'docs.example',
    status,
    progress: null,
    frontier: [],
    visited: [],
    pageErrors: [],
    error: null,
    createdAt: at(createdAt),
    updatedAt: at(createdAt),
    startedAt: null,
    finishedAt: null,
  });
  const jobs = new MingoCollection([
    job('j1', 'completed', '2025-01-01T00:00:00Z'),
    job('j2', 'running', '2025-01-02T00:00:00Z'),
    job('j3', 'queued', '2025-01-03T00:00:00Z', 't2'),
  ]);

  it('lists newest first by status; resumes unfinished jobs of every tenant oldest first; patches', () => {
    expect(jobs.find(jobsQuery('t1', undefined, 10)).map((j) => j.id)).toEqual(['j2', 'j1']);
    expect(jobs.find(jobsQuery('t1', ['completed'], 10)).map((j) => j.id)).toEqual(['j1']);
    expect(jobs.find(unfinishedJobsQuery()).map((j) => j.id)).toEqual(['j2', 'j3']);
    const now = at('2025-02-01T00:00:00Z');
    const updated = jobs.findOneAndUpdate(
      jobUpdate(
        't1',
        'j2',
        {
          status: 'failed',
          errors: [{ url: 'u', message: 'e', at: now.toISOString() }],
          finishedAt: now.toISOString(),
        },
        now,
      ),
    );
    expect(updated).toMatchObject({
      status: 'failed',
      pageErrors: [{ url: 'u', message: 'e', at: now.toISOString() }],
      finishedAt: now,
    });
  });
});
