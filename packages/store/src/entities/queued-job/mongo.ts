// The embedded job queue's rows. Every state change is one single-document update whose
// filter re-checks the state it leaves, so it is atomic on any deployment (no transactions).
import { newQueuedJobRecord, type QueuedJob, type QueuedJobRepository } from './record';
import { clampLimit } from '../../shared';
import type { QueuedJobDoc } from './mongo-schema';
import {
  abandonQueuedJobUpdate,
  busyTenantsFilter,
  claimQueuedJobUpdate,
  completeQueuedJobUpdate,
  exhaustedQueuedJobsQuery,
  failQueuedJobUpdate,
  queuedJobDoc,
  queuedJobFilter,
  queuedJobInsert,
  releaseQueuedJobUpdate,
  renewQueuedJobUpdate,
  retryQueuedJobUpdate,
  tenantQueuedJobFilter,
} from './mongo-queries';
import type { MongoModels } from '../../mongo/schemas';
import {
  fromJson,
  iso,
  isoOrNull,
  nowDate,
  orNull,
  retryOnDuplicate,
  toDate,
} from '../../mongo/util';

const toJob = (doc: QueuedJobDoc): QueuedJob => ({
  id: doc.id,
  queue: doc.queue,
  tenantId: doc.tenantId,
  data: fromJson<unknown>(doc.data),
  status: doc.status,
  attempts: doc.attempts,
  maxAttempts: doc.maxAttempts,
  backoffMs: doc.backoffMs,
  runAt: iso(doc.runAt),
  owner: orNull(doc.owner),
  leaseExpiresAt: isoOrNull(doc.leaseExpiresAt),
  error: orNull(doc.error),
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
  finishedAt: isoOrNull(doc.finishedAt),
});

const at = (now: string | undefined): Date => (now === undefined ? nowDate() : toDate(now));

export function mongoQueuedJobs({ queuedJobs }: MongoModels): QueuedJobRepository {
  return {
    async add(input, now) {
      const doc = queuedJobDoc(newQueuedJobRecord(input, iso(at(now))));
      const { filter, update } = queuedJobInsert(doc);
      const result = await retryOnDuplicate(() =>
        queuedJobs.updateOne(filter, update, { upsert: true }).exec(),
      );
      if (result.upsertedCount > 0) return { job: toJob(doc), created: true };
      const existing = await queuedJobs.findOne(queuedJobFilter(doc.queue, doc.id)).lean().exec();
      if (existing === null) throw new Error(`mongo: queued job ${doc.queue}/${doc.id} vanished`);
      return { job: toJob(existing), created: false };
    },

    async get(tenantId, queue, id) {
      const doc = await queuedJobs
        .findOne(tenantQueuedJobFilter(tenantId, queue, id))
        .lean()
        .exec();
      return doc ? toJob(doc) : null;
    },

    async claim(queue, owner, leaseMs, options = {}, now) {
      const time = at(now);
      // Read first, then claim: two processes claiming at the same instant may each take a job
      // of one tenant (there is no cross-document check without a transaction). A job itself
      // is still only ever claimed once: the update's filter re-checks that it is runnable.
      const busy =
        options.onePerTenant === true
          ? (await queuedJobs.distinct('tenantId', busyTenantsFilter(queue, time)).exec()).map(
              String,
            )
          : [];
      const { filter, update, sort } = claimQueuedJobUpdate(queue, owner, leaseMs, time, busy);
      const doc = await queuedJobs
        .findOneAndUpdate(filter, update, { sort, returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toJob(doc) : null;
    },

    async renew(queue, id, owner, leaseMs, now) {
      const { filter, update } = renewQueuedJobUpdate(queue, id, owner, leaseMs, at(now));
      const result = await queuedJobs.updateOne(filter, update).exec();
      return result.modifiedCount > 0;
    },

    async complete(queue, id, owner, now) {
      const { filter, update } = completeQueuedJobUpdate(queue, id, owner, at(now));
      const result = await queuedJobs.updateOne(filter, update).exec();
      return result.modifiedCount > 0;
    },

    async fail(queue, id, owner, error, retryAt, now) {
      const { filter, update } = failQueuedJobUpdate(
        queue,
        id,
        owner,
        error,
        retryAt === null ? null : toDate(retryAt),
        at(now),
      );
      const result = await queuedJobs.updateOne(filter, update).exec();
      return result.modifiedCount > 0;
    },

    async release(queue, id, owner, now) {
      const { filter, update } = releaseQueuedJobUpdate(queue, id, owner, at(now));
      const result = await queuedJobs.updateOne(filter, update).exec();
      return result.modifiedCount > 0;
    },

    async abandon(queue, id, error, now) {
      const { filter, update } = abandonQueuedJobUpdate(queue, id, error, at(now));
      const result = await queuedJobs.updateOne(filter, update).exec();
      return result.modifiedCount > 0;
    },

    async retry(tenantId, queue, id, now) {
      const { filter, update } = retryQueuedJobUpdate(tenantId, queue, id, at(now));
      const doc = await queuedJobs
        .findOneAndUpdate(filter, update, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toJob(doc) : null;
    },

    async listExhausted(queue, options = {}, now) {
      const query = exhaustedQueuedJobsQuery(queue, at(now), clampLimit(options.limit, 20));
      const docs = await queuedJobs
        .find(query.filter)
        .sort(query.sort)
        .limit(query.limit ?? 20)
        .lean()
        .exec();
      return docs.map(toJob);
    },
  };
}
