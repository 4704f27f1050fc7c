// Streaming collection: items a task gathers, unique per (task, type, uniqueKey), numbered by
// a per-task seq that readers page on with `afterSeq`.
import { DuplicateKeyError } from '../../port';
import { newCollectedItemRecord, type CollectedItem, type CollectedItemRepository } from './record';
import { clampLimit, nowIso } from '../../shared';
import type { CollectedItemDoc } from './mongo-schema';
import { countByTypePipeline, itemKeyFilter, itemsQuery } from './mongo-queries';
import type { MongoModels } from '../../mongo/schemas';
import {
  fromJson,
  iso,
  isMongoDuplicateKey,
  jsonValue,
  nextSeq,
  orNull,
  toDate,
} from '../../mongo/util';

const toItem = (doc: CollectedItemDoc): CollectedItem => ({
  id: doc.id,
  tenantId: doc.tenantId,
  taskId: doc.taskId,
  type: doc.type,
  uniqueKey: doc.uniqueKey,
  data: fromJson<Record<string, unknown>>(doc.data),
  sourceUrl: orNull(doc.sourceUrl),
  seq: doc.seq,
  createdAt: iso(doc.createdAt),
});

export function mongoCollectedItems({
  collectedItems,
  counters,
}: MongoModels): CollectedItemRepository {
  return {
    async insert(tenantId, input) {
      const key = itemKeyFilter(tenantId, input);
      const find = () => collectedItems.findOne(key).lean().exec();
      // Look before taking a seq: a duplicate (the common case when a page is re-read) must not
      // consume one, or readers paging with afterSeq would see gaps.
      const existing = await find();
      if (existing) return { inserted: false, item: toItem(existing) };

      const seq = await nextSeq(counters, tenantId, 'collectedItems', input.taskId);
      const item = newCollectedItemRecord(tenantId, input, nowIso());
      const doc: CollectedItemDoc = {
        ...item,
        data: jsonValue(item.data),
        seq,
        createdAt: toDate(item.createdAt),
      };
      try {
        await collectedItems.create(doc);
        return { inserted: true, item: toItem(doc) };
      } catch (error) {
        if (!isMongoDuplicateKey(error)) throw error;
        // Lost a race to the same item (this seq stays unused), or the caller's id is taken.
        const winner = await find();
        if (winner) return { inserted: false, item: toItem(winner) };
        throw new DuplicateKeyError(`collected item ${doc.id}`);
      }
    },
    async list(tenantId, taskId, options = {}) {
      const limit = clampLimit(options.limit, 1000, 10_000);
      const query = itemsQuery(tenantId, taskId, options, limit);
      const docs = await collectedItems
        .find(query.filter)
        .sort(query.sort)
        .limit(limit)
        .lean()
        .exec();
      return docs.map(toItem);
    },
    async countByType(tenantId, taskId) {
      const groups = await collectedItems
        .aggregate<{ _id: string; n: number }>(countByTypePipeline(tenantId, taskId))
        .exec();
      return Object.fromEntries(groups.map((group) => [group._id, group.n]));
    },
  };
}
