// The embedded event bus's relay. append takes the next store-wide seq from the counters
// collection (one atomic $inc, so no two appends share one) and inserts the event with it.
//
// Unlike libSQL, taking a seq and inserting are two writes (no transaction: any deployment),
// so seqs are increasing in the order they are taken, but two appends racing may become visible
// out of that order: a reader polling between them can see N+1 before N is inserted, and once it
// passes N+1 as afterSeq it never sees N. A reader that cannot afford that has to look a short
// way behind its last seq (and drop the seqs it has already seen).
import type { LiveEventRecord, LiveEventRepository } from './record';
import { clampLimit, nowIso } from '../../shared';
import type { LiveEventDoc } from './mongo-schema';
import {
  LIVE_EVENTS_COUNTER,
  lastLiveEventQuery,
  liveEventDoc,
  liveEventsAfterQuery,
  liveEventsBeforeFilter,
} from './mongo-queries';
import type { MongoModels } from '../../mongo/schemas';
import { fromJson, iso, nextSeq, toDate } from '../../mongo/util';

const toEvent = (doc: LiveEventDoc): LiveEventRecord => ({
  seq: doc.seq,
  channel: doc.channel,
  origin: doc.origin,
  data: fromJson<unknown>(doc.data),
  createdAt: iso(doc.createdAt),
});

export function mongoLiveEvents({ liveEvents, counters }: MongoModels): LiveEventRepository {
  return {
    async append(input, now) {
      const createdAt = iso(toDate(now ?? nowIso()));
      const seq = await nextSeq(
        counters,
        LIVE_EVENTS_COUNTER.tenantId,
        LIVE_EVENTS_COUNTER.scope,
        LIVE_EVENTS_COUNTER.key,
      );
      const doc = liveEventDoc({ seq, ...input, createdAt });
      await liveEvents.create(doc);
      return toEvent(doc);
    },

    async listAfter(afterSeq, options) {
      if (options.channels.length === 0) return [];
      const limit = clampLimit(options.limit, 500);
      const query = liveEventsAfterQuery(afterSeq, options.channels, limit);
      const docs = await liveEvents
        .find(query.filter)
        .sort(query.sort)
        .limit(query.limit ?? limit)
        .lean()
        .exec();
      return docs.map(toEvent);
    },

    async lastSeq() {
      const query = lastLiveEventQuery();
      const last = await liveEvents
        .findOne(query.filter)
        .sort(query.sort)
        .select({ seq: 1 })
        .lean()
        .exec();
      return last?.seq ?? 0;
    },

    async prune(before) {
      const result = await liveEvents.deleteMany(liveEventsBeforeFilter(toDate(before))).exec();
      return result.deletedCount;
    },
  };
}
