// The routines repository's query documents, evaluated by mingo.
import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../../shared';
import { MingoCollection } from '../../mongo/queries/mingo-collection';
import { routineRecord } from '../../testing/routine-record';
import type { RoutineDoc } from './mongo-schema';
import {
  latestQuery,
  routineCountsUpdate,
  routineListQuery,
  routinePatchUpdate,
  versionsQuery,
} from './mongo-queries';

const NOW = new Date('2026-11-12T09:00:00.000Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

/** A stored routine as its Mongo document: the shared record, with dates as Dates. */
function routine(over: Partial<RoutineDoc> & { id: string }): RoutineDoc {
  const { createdAt, updatedAt, ...rest } = routineRecord({ id: over.id });
  return { ...rest, createdAt: new Date(createdAt), updatedAt: new Date(updatedAt), ...over };
}

const KEY = { site: 'emr.test', goalTemplate: 'Add patient {firstName}' };

describe('routines', () => {
  const routines = () =>
    new MingoCollection([
      routine({ id: 'v1', version: 1, createdAt: at(1) }),
      routine({ id: 'v2', version: 2, createdAt: at(2) }),
      routine({ id: 'v3', version: 3, enabled: false, createdAt: at(3) }),
      routine({ id: 'b', site: 'b.test', createdAt: at(4) }),
      routine({ id: 'g', goalTemplate: 'Add patient', createdAt: at(5) }),
      routine({ id: 'x', tenantId: 't2', version: 9, createdAt: at(6) }),
    ]);

  it('orders the versions of one routine and finds the highest enabled one', () => {
    const docs = routines();
    expect(docs.find(versionsQuery('t1', KEY)).map((r) => r.id)).toEqual(['v3', 'v2', 'v1']);
    expect(docs.findOne(latestQuery('t1', KEY))?.id).toBe('v2');
    expect(docs.findOne(latestQuery('t1', KEY, true))?.id).toBe('v3');
    expect(docs.findOne(latestQuery('t3', KEY))).toBeNull();
  });

  it('lists newest first after the cursor, optionally one site', () => {
    const docs = routines();
    const ids = (options: Parameters<typeof routineListQuery>[1], limit = 10) =>
      docs.find(routineListQuery('t1', options, limit)).map((r) => r.id);
    expect(ids({})).toEqual(['g', 'b', 'v3', 'v2', 'v1']);
    // limit + 1 tells the adapter another page follows.
    expect(ids({}, 1)).toEqual(['g', 'b']);
    expect(ids({ cursor: encodeCursor([at(3).toISOString(), 'v3']) })).toEqual(['v2', 'v1']);
    expect(ids({ site: 'b.test' })).toEqual(['b']);
  });

  it('patches only the given fields and adds to the counters', () => {
    const docs = routines();
    expect(
      docs.findOneAndUpdate(routinePatchUpdate('t1', 'v1', { enabled: false }, at(9))),
    ).toMatchObject({
      id: 'v1',
      enabled: false,
      name: 'Add patient',
      updatedAt: at(9),
    });
    expect(docs.findOneAndUpdate(routinePatchUpdate('t2', 'v1', { name: 'x' }, at(9)))).toBeNull();
    docs.findOneAndUpdate(routineCountsUpdate('t1', 'v2', { runs: 1, tokensSaved: 100 }, at(9)));
    expect(
      docs.findOneAndUpdate(routineCountsUpdate('t1', 'v2', { runs: 1, heals: 1 }, at(10))),
    ).toMatchObject({ runs: 2, heals: 1, tokensSaved: 100, updatedAt: at(10) });
  });
});
