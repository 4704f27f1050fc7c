// Idempotency claims and rate-limit counters: each is one atomic findOneAndUpdate, so the
// check and the write happen together and no second request can slip between them.
import { DuplicateKeyError } from '../../port';
import {
  newIdempotencyRecord,
  type IdempotencyRecord,
  type IdempotencyRepository,
  type RateLimitRepository,
} from './record';
import type { IdempotencyDoc, RateLimitDoc } from './mongo-schema';
import {
  claimFilter,
  claimUpdate,
  completeClaimUpdate,
  counterFilter,
  liveClaimFilter,
  liveCounterFilter,
  rateLimitIncrement,
  renewClaimUpdate,
} from './mongo-queries';
import type { MongoModels } from '../../mongo/schemas';
import {
  fromJson,
  iso,
  isMongoDuplicateKey,
  nowDate,
  retryOnDuplicate,
  toDate,
} from '../../mongo/util';

const toRecord = (doc: IdempotencyDoc): IdempotencyRecord => ({
  tenantId: doc.tenantId,
  key: doc.key,
  scope: doc.scope,
  requestHash: doc.requestHash,
  status: doc.status,
  response: fromJson<unknown>(doc.response),
  createdAt: iso(doc.createdAt),
  expiresAt: iso(doc.expiresAt),
});

export function mongoIdempotency({ idempotency }: MongoModels): IdempotencyRepository {
  return {
    async begin(tenantId, input, now) {
      const at = now === undefined ? nowDate() : toDate(now);
      const claim = newIdempotencyRecord(tenantId, input, iso(at));
      try {
        const { filter, update } = claimUpdate(claim, at);
        const doc = await idempotency
          .findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' })
          .lean()
          .exec();
        if (doc === null) throw new Error('mongo: idempotency upsert returned nothing');
        return toRecord(doc);
      } catch (error) {
        if (isMongoDuplicateKey(error)) throw new DuplicateKeyError(`idempotency key ${input.key}`);
        throw error;
      }
    },
    async get(tenantId, key) {
      // The TTL monitor deletes expired claims only about once a minute.
      const doc = await idempotency
        .findOne(liveClaimFilter(tenantId, key, nowDate()))
        .lean()
        .exec();
      return doc ? toRecord(doc) : null;
    },
    async renew(tenantId, key, ttlMs, options = {}) {
      const at = options.now === undefined ? nowDate() : toDate(options.now);
      const { filter, update } = renewClaimUpdate(tenantId, key, ttlMs, at, options.requestHash);
      const result = await idempotency.updateOne(filter, update).exec();
      return result.modifiedCount > 0;
    },
    async complete(tenantId, key, response, options = {}) {
      const at = options.now === undefined ? nowDate() : toDate(options.now);
      const { filter, update } = completeClaimUpdate(tenantId, key, response, {
        at,
        ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
      });
      const doc = await idempotency
        .findOneAndUpdate(filter, update, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toRecord(doc) : null;
    },
    async release(tenantId, key, options = {}) {
      const result = await idempotency
        .deleteOne(claimFilter(tenantId, key, options.requestHash))
        .exec();
      return result.deletedCount > 0;
    },
  };
}

export function mongoRateLimits({ rateLimits }: MongoModels): RateLimitRepository {
  return {
    async increment(key, points, durationMs, nowMs = Date.now()) {
      const { filter, update } = rateLimitIncrement(key, points, durationMs, nowMs);
      // Two first increments of one key can both try to insert; the loser gets E11000 having
      // written nothing, so retrying it is safe (and finds the winner's window).
      const doc = await retryOnDuplicate(() =>
        rateLimits
          .findOneAndUpdate(
            filter,
            update,
            // Mongoose does not cast pipelines, so it wants them acknowledged; every value in
            // this one is already a number.
            { upsert: true, returnDocument: 'after', updatePipeline: true },
          )
          .lean<RateLimitDoc>()
          .exec(),
      );
      if (doc === null) throw new Error('mongo: rate limit upsert returned nothing');
      return { consumed: doc.consumed, expiresAtMs: doc.expiresAtMs };
    },
    async get(key, nowMs = Date.now()) {
      const doc = await rateLimits.findOne(liveCounterFilter(key, nowMs)).lean().exec();
      return doc ? { consumed: doc.consumed, expiresAtMs: doc.expiresAtMs } : null;
    },
    async delete(key) {
      const result = await rateLimits.deleteOne(counterFilter(key)).exec();
      return result.deletedCount > 0;
    },
  };
}
