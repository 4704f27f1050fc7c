// Idempotency claims and rate-limit counters: each is one atomic findOneAndUpdate, so the
// check and the write happen together and no second request can slip between them.
import {
  DuplicateKeyError,
  type IdempotencyRecord,
  type IdempotencyRepository,
  type RateLimitRepository,
} from '../port';
import { newIdempotencyRecord } from '../record-defaults';
import type { IdempotencyDoc, RateLimitDoc } from './documents';
import type { MongoModels } from './schemas';
import {
  fromJson,
  iso,
  isMongoDuplicateKey,
  jsonValue,
  nowDate,
  retryOnDuplicate,
  toDate,
} from './util';

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
        // Matches only an expired claim, which is replaced in place. With no claim at all the
        // upsert inserts; with a live one it also tries to insert and the unique
        // (tenantId, key) index refuses: that refusal is the "already claimed" answer.
        const doc = await idempotency
          .findOneAndUpdate(
            { tenantId: claim.tenantId, key: claim.key, expiresAt: { $lte: at } },
            {
              $set: {
                scope: claim.scope,
                requestHash: claim.requestHash,
                status: claim.status,
                response: jsonValue(claim.response),
                createdAt: toDate(claim.createdAt),
                expiresAt: toDate(claim.expiresAt),
              },
            },
            { upsert: true, returnDocument: 'after' },
          )
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
        .findOne({ tenantId, key, expiresAt: { $gt: nowDate() } })
        .lean()
        .exec();
      return doc ? toRecord(doc) : null;
    },
    async renew(tenantId, key, ttlMs, now) {
      const at = now === undefined ? nowDate() : toDate(now);
      const result = await idempotency
        .updateOne(
          { tenantId, key, status: 'in_progress', expiresAt: { $gt: at } },
          { $set: { expiresAt: new Date(at.getTime() + ttlMs) } },
        )
        .exec();
      return result.modifiedCount > 0;
    },
    async complete(tenantId, key, response, options = {}) {
      const at = options.now === undefined ? nowDate() : toDate(options.now);
      const set: Record<string, unknown> = { status: 'completed', response: jsonValue(response) };
      if (options.ttlMs !== undefined) set.expiresAt = new Date(at.getTime() + options.ttlMs);
      const doc = await idempotency
        .findOneAndUpdate({ tenantId, key }, { $set: set }, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toRecord(doc) : null;
    },
    async release(tenantId, key) {
      const result = await idempotency.deleteOne({ tenantId, key }).exec();
      return result.deletedCount > 0;
    },
  };
}

export function mongoRateLimits({ rateLimits }: MongoModels): RateLimitRepository {
  return {
    async increment(key, points, durationMs, nowMs = Date.now()) {
      // One pipeline update: every expression in a $set stage reads the document as it was
      // before the stage, so all three fields agree on whether the old window had ended. On
      // the upsert's first insert the fields are missing, which counts as "ended".
      const ended = { $lte: [{ $ifNull: ['$expiresAtMs', 0] }, nowMs] };
      const expiresAtMs = { $cond: [ended, nowMs + durationMs, '$expiresAtMs'] };
      // Two first increments of one key can both try to insert; the loser gets E11000 having
      // written nothing, so retrying it is safe (and finds the winner's window).
      const doc = await retryOnDuplicate(() =>
        rateLimits
          .findOneAndUpdate(
            { key },
            [
              {
                $set: {
                  consumed: { $cond: [ended, points, { $add: ['$consumed', points] }] },
                  expiresAtMs,
                  expiresAt: { $toDate: expiresAtMs },
                },
              },
            ],
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
      const doc = await rateLimits
        .findOne({ key, expiresAtMs: { $gt: nowMs } })
        .lean()
        .exec();
      return doc ? { consumed: doc.consumed, expiresAtMs: doc.expiresAtMs } : null;
    },
    async delete(key) {
      const result = await rateLimits.deleteOne({ key }).exec();
      return result.deletedCount > 0;
    },
  };
}
