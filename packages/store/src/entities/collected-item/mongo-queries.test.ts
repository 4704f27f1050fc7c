// The collected items repository's query documents, evaluated by mingo.
import { describe, expect, it } from 'vitest';
import type { CollectedItemDoc } from './mongo-schema';
import { countByTypePipeline, itemKeyFilter, itemsQuery } from './mongo-queries';
import { MingoCollection } from '../../mongo/queries/mingo-collection';

const at = (iso: string) => new Date(iso);

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
