// Query documents of the embedded event bus's relay. A seq comes from one atomic $inc on a
// store-wide counter (the per-scope counters of messages and collected items, under a scope of
// its own), so concurrent appends from every process get distinct, increasing numbers; the
// event is then inserted with it, and readers page on seq.
import type { LiveEventRecord } from './record';
import type { LiveEventDoc } from './mongo-schema';
import { nextSeqUpdate, toDate } from '../../mongo/queries/cursor';
import { jsonValue } from '../../mongo/queries/json';
import type { Filter, FindSpec, UpdateSpec } from '../../mongo/queries/spec';

/**
 * The relay's counter. It belongs to no tenant (channels carry theirs): `*` is never a tenant id
 * (those are UUIDs), and the scope alone already keeps it apart from every other counter.
 */
export const LIVE_EVENTS_COUNTER = { tenantId: '*', scope: 'liveEvents', key: 'seq' } as const;

/** The next live-event seq: 1, 2, 3… over the whole store. */
export const nextLiveEventSeqUpdate = (): UpdateSpec =>
  nextSeqUpdate(LIVE_EVENTS_COUNTER.tenantId, LIVE_EVENTS_COUNTER.scope, LIVE_EVENTS_COUNTER.key);

/** An appended event as stored: data as its JSON form, the time as a date. */
export const liveEventDoc = (event: LiveEventRecord): LiveEventDoc => ({
  seq: event.seq,
  channel: event.channel,
  origin: event.origin,
  data: jsonValue(event.data),
  createdAt: toDate(event.createdAt),
});

/**
 * Events after `afterSeq` on any of `channels`, by seq: one range of the (channel, seq) index
 * per channel, merged in seq order.
 */
export const liveEventsAfterQuery = (
  afterSeq: number,
  channels: readonly string[],
  limit: number,
): FindSpec => ({
  filter: { channel: { $in: [...channels] }, seq: { $gt: afterSeq } },
  sort: { seq: 1 },
  limit,
});

/** The event with the greatest seq (the end of the unique seq index). */
export const lastLiveEventQuery = (): FindSpec => ({ filter: {}, sort: { seq: -1 }, limit: 1 });

export const liveEventsBeforeFilter = (before: Date): Filter => ({ createdAt: { $lt: before } });
