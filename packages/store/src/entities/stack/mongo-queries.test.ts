// The stack repository's query documents, evaluated by mingo on stored-shape rows.
import { describe, expect, it } from 'vitest';
import { MingoCollection } from '../../mongo/queries/mingo-collection';
import { cellUpdate, rowFilter, rowsQuery, rowUpsert } from './mongo-queries';
import type { StackRowDoc } from './mongo-schema';

const at = (iso: string) => new Date(iso);

describe('stack rows', () => {
  it('upserts a row keeping its place, sets a cell by column, lists by place', () => {
    const rows = new MingoCollection<StackRowDoc>([]);
    const now = at('2026-01-05T00:00:00Z');
    const key = (documentId: string) => rowFilter('t1', 's1', documentId, 'u1');
    rows.findOneAndUpdate(
      rowUpsert(key('d2'), { cells: { total: 7 }, confidences: { total: 0.8 } }, 1, now),
    );
    rows.findOneAndUpdate(
      rowUpsert(key('d1'), { cells: { total: 1 }, confidences: { total: 0.9 } }, 2, now),
    );
    const again = rows.findOneAndUpdate(
      rowUpsert(
        key('d2'),
        { cells: { total: 8 }, confidences: { total: 1 } },
        3,
        at('2026-01-06T00:00:00Z'),
      ),
    );
    expect(again).toMatchObject({ position: 1, cells: { total: 8 }, createdAt: now, userId: 'u1' });
    const cell = rows.findOneAndUpdate(
      cellUpdate(key('d1'), 'cells.total', 'confidences.total', 1240.5, 1, now),
    );
    expect(cell).toMatchObject({ cells: { total: 1240.5 }, confidences: { total: 1 } });
    expect(
      rows.findOneAndUpdate(
        cellUpdate(
          rowFilter('t1', 's1', 'd1', 'u2'),
          'cells.total',
          'confidences.total',
          0,
          1,
          now,
        ),
      ),
    ).toBeNull();
    expect(rows.find(rowsQuery('t1', 's1')).map((r) => r.documentId)).toEqual(['d2', 'd1']);
  });
});
