// The event relay's query documents, evaluated by mingo: the store-wide seq counter, and what
// listAfter, lastSeq and prune select.
import { describe, expect, it } from 'vitest';
import type { LiveEventDoc } from './mongo-schema';
import type { CounterDoc } from '../../mongo/schemas';
import { nextSeqUpdate } from '../../mongo/queries/cursor';
import {
  LIVE_EVENTS_COUNTER,
  lastLiveEventQuery,
  liveEventDoc,
  liveEventsAfterQuery,
  liveEventsBeforeFilter,
  nextLiveEventSeqUpdate,
} from './mongo-queries';
import { MingoCollection } from '../../mongo/queries/mingo-collection';

const T0 = Date.parse('2025-06-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

const event = (seq: number, channel: string, ms = seq): LiveEventDoc =>
  liveEventDoc({ seq, channel, origin: 'proc-a', data: { seq }, createdAt: at(ms) });

describe('live events: seq counter', () => {
  it('numbers appends 1, 2, 3… with one store-wide counter of its own scope', () => {
    const counters = new MingoCollection<CounterDoc>();
    const next = () => counters.findOneAndUpdate(nextLiveEventSeqUpdate())?.seq;
    expect([next(), next()]).toEqual([1, 2]);
    // Another scope's counter, even under the same key, is another sequence.
    counters.findOneAndUpdate(nextSeqUpdate(LIVE_EVENTS_COUNTER.tenantId, 'messages', 'seq'));
    expect(next()).toBe(3);
    expect(counters.find({ filter: { scope: 'liveEvents' } })).toEqual([
      expect.objectContaining({ tenantId: '*', scope: 'liveEvents', key: 'seq', seq: 3 }),
    ]);
  });
});

describe('live events: documents and reads', () => {
  it('stores data as its JSON form and the time as a date', () => {
    const doc = liveEventDoc({
      seq: 7,
      channel: 'task:t1:a',
      origin: 'proc-a',
      data: { step: 1, gone: undefined, list: [1, 'x', null] },
      createdAt: '2025-06-01T02:00:00.000+02:00',
    });
    expect(doc).toEqual({
      seq: 7,
      channel: 'task:t1:a',
      origin: 'proc-a',
      data: { step: 1, list: [1, 'x', null] },
      createdAt: new Date('2025-06-01T00:00:00.000Z'),
    });
    expect(liveEventDoc({ ...doc, data: undefined, createdAt: at(0) }).data).toBeNull();
  });

  it('lists the given channels after afterSeq, by seq, at most limit', () => {
    // Inserted out of seq order, as two racing appends may be.
    const events = new MingoCollection<LiveEventDoc>([
      event(2, 'b'),
      event(1, 'a'),
      event(4, 'a'),
      event(3, 'c'),
      event(5, 'b'),
    ]);
    const seqs = (afterSeq: number, channels: string[], limit = 500) =>
      events.find(liveEventsAfterQuery(afterSeq, channels, limit)).map((e) => e.seq);
    expect(seqs(0, ['a'])).toEqual([1, 4]);
    expect(seqs(0, ['a', 'b'])).toEqual([1, 2, 4, 5]);
    expect(seqs(2, ['a', 'b'])).toEqual([4, 5]);
    expect(seqs(0, ['a', 'b', 'c'], 2)).toEqual([1, 2]);
    expect(seqs(5, ['a', 'b', 'c'])).toEqual([]);
    expect(seqs(0, ['none'])).toEqual([]);
    expect(liveEventsAfterQuery(0, ['a'], 10)).toMatchObject({ sort: { seq: 1 }, limit: 10 });
  });

  it('finds the greatest seq, none in an empty collection', () => {
    expect(new MingoCollection<LiveEventDoc>().findOne(lastLiveEventQuery())).toBeNull();
    const events = new MingoCollection<LiveEventDoc>([event(2, 'a'), event(9, 'b'), event(4, 'a')]);
    expect(events.findOne(lastLiveEventQuery())?.seq).toBe(9);
  });

  it('prunes the events created strictly before a time', () => {
    const events = new MingoCollection<LiveEventDoc>([
      event(1, 'a', 0),
      event(2, 'b', 10),
      event(3, 'a', 20),
    ]);
    expect(events.deleteMany(liveEventsBeforeFilter(new Date(T0 + 10)))).toBe(1);
    expect(events.docs.map((e) => e.seq)).toEqual([2, 3]);
    expect(events.deleteMany(liveEventsBeforeFilter(new Date(T0 + 10)))).toBe(0);
  });
});
