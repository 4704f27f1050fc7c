// The usage log's billing pipelines, evaluated by mingo: UTC days, groupings, windows.
import { describe, expect, it } from 'vitest';
import type { TokenUsageDoc } from './mongo-schema';
import { MingoCollection } from '../../mongo/queries/mingo-collection';
import {
  usageByTaskPipeline,
  usageListQuery,
  usageRollupPipeline,
  usageSeriesPipeline,
} from './mongo-queries';

function row(over: Partial<TokenUsageDoc> & { id: string; timestamp: Date }): TokenUsageDoc {
  return {
    tenantId: 't1',
    partOf: null,
    userId: 'u1',
    sessionId: null,
    messageId: null,
    taskId: 'task-1',
    traceId: null,
    provider: 'GOOGLE',
    model: 'gemini-2.5-flash',
    actionType: 'PLANNING',
    inputTokens: 100,
    outputTokens: 10,
    cachedInputTokens: 0,
    thinkingTokens: 0,
    totalTokens: 110,
    costMicroUsd: 55,
    durationMs: 10,
    ...over,
  };
}

const log = new MingoCollection([
  row({ id: '1', timestamp: new Date('2025-03-01T23:59:59.999Z'), cachedInputTokens: 40 }),
  row({
    id: '2',
    timestamp: new Date('2025-03-02T00:00:00Z'),
    model: 'gemini-2.5-pro',
    userId: null,
    cachedInputTokens: 30,
  }),
  row({
    id: '3',
    timestamp: new Date('2025-03-02T12:00:00Z'),
    actionType: 'VERIFICATION',
    taskId: 'task-2',
  }),
  row({ id: '4', timestamp: new Date('2025-03-02T12:00:00Z'), tenantId: 't2' }),
]);

describe('usage rollups', () => {
  it('sums per UTC day, in key order, this tenant only', () => {
    const rows = log.aggregate(usageRollupPipeline('t1', { groupBy: 'day' }));
    expect(rows).toEqual([
      {
        _id: '2025-03-01',
        calls: 1,
        inputTokens: 100,
        cachedInputTokens: 40,
        outputTokens: 10,
        totalTokens: 110,
        costMicroUsd: 55,
      },
      {
        _id: '2025-03-02',
        calls: 2,
        inputTokens: 200,
        cachedInputTokens: 30,
        outputTokens: 20,
        totalTokens: 220,
        costMicroUsd: 110,
      },
    ]);
  });

  it('groups by model, action type and user (no user as "")', () => {
    const keys = (groupBy: 'model' | 'actionType' | 'user') =>
      log
        .aggregate<{ _id: string; calls: number }>(usageRollupPipeline('t1', { groupBy }))
        .map((r) => [r._id, r.calls]);
    expect(keys('model')).toEqual([
      ['gemini-2.5-flash', 2],
      ['gemini-2.5-pro', 1],
    ]);
    expect(keys('actionType')).toEqual([
      ['PLANNING', 2],
      ['VERIFICATION', 1],
    ]);
    expect(keys('user')).toEqual([
      ['', 1],
      ['u1', 2],
    ]);
  });

  it('takes the window as [from, to)', () => {
    const rows = log.aggregate<{ _id: string; calls: number }>(
      usageRollupPipeline('t1', {
        from: '2025-03-02T00:00:00Z',
        to: '2025-03-02T12:00:00Z',
        groupBy: 'day',
      }),
    );
    expect(rows.map((r) => [r._id, r.calls])).toEqual([['2025-03-02', 1]]);
  });

  it('series: per (key, series) pair, ordered by both', () => {
    const rows = log.aggregate<{ _id: { key: string; series: string }; calls: number }>(
      usageSeriesPipeline('t1', { groupBy: 'day', seriesBy: 'actionType' }),
    );
    expect(rows.map((r) => [r._id.key, r._id.series, r.calls])).toEqual([
      ['2025-03-01', 'PLANNING', 1],
      ['2025-03-02', 'PLANNING', 1],
      ['2025-03-02', 'VERIFICATION', 1],
    ]);
  });

  it('totals per task for the ids asked, duplicates ignored', () => {
    const rows = log.aggregate<{ _id: string; totalTokens: number; cachedInputTokens: number }>(
      usageByTaskPipeline('t1', ['task-2', 'task-1', 'task-2', 'task-9']),
    );
    expect(rows.map((r) => [r._id, r.totalTokens, r.cachedInputTokens])).toEqual([
      ['task-1', 220, 70],
      ['task-2', 110, 0],
    ]);
  });

  it('lists oldest first, of one task when asked', () => {
    expect(log.find(usageListQuery('t1', {}, 10)).map((r) => r.id)).toEqual(['1', '2', '3']);
    expect(log.find(usageListQuery('t1', { taskId: 'task-2' }, 10)).map((r) => r.id)).toEqual([
      '3',
    ]);
    expect(log.find(usageListQuery('t1', {}, 1)).map((r) => r.id)).toEqual(['1']);
  });

  it("counts a merged call's share under its own action type, as tokens and no call", () => {
    const { partOf: _unset, ...legacy } = row({ id: 'old', timestamp: new Date('2025-03-03') });
    const merged = new MingoCollection([
      row({ id: 'g1', timestamp: new Date('2025-03-03'), actionType: 'CONTEXT_ANALYSIS' }),
      row({ id: 'g1:planning', partOf: 'g1', timestamp: new Date('2025-03-03'), totalTokens: 40 }),
      // Logged before `partOf` existed: a call.
      legacy as TokenUsageDoc,
    ]);
    const rows = merged.aggregate<{ _id: string; calls: number; totalTokens: number }>(
      usageRollupPipeline('t1', { groupBy: 'actionType' }),
    );
    expect(rows.map((r) => [r._id, r.calls, r.totalTokens])).toEqual([
      ['CONTEXT_ANALYSIS', 1, 110],
      ['PLANNING', 1, 150],
    ]);
    const [day] = merged.aggregate<{ calls: number }>(
      usageRollupPipeline('t1', { groupBy: 'day' }),
    );
    expect(day?.calls).toBe(2);
  });

  it('a misspelt stage or operator fails here, as it would on a server', () => {
    expect(() => log.aggregate([{ $gruop: { _id: null } } as never])).toThrow();
    expect(() => log.find({ filter: { timestamp: { $gtee: new Date() } } })).toThrow();
  });
});
