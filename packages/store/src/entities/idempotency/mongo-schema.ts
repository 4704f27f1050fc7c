// The idempotency and rate-limit collections. Every index the adapter relies on is declared
// here: createMongoStore's syncIndexes() drops the ones that are not.
import { Mixed, SCHEMA_OPTIONS, Schema, type MongoDoc } from '../../mongo/schema-kit';
import type { IdempotencyRecord } from './record';

export type IdempotencyDoc = MongoDoc<IdempotencyRecord, 'createdAt' | 'expiresAt'>;

export interface RateLimitDoc {
  key: string;
  consumed: number;
  expiresAtMs: number;
  /** expiresAtMs as a date, only so a TTL index can drop windows nobody reads any more. */
  expiresAt: Date;
}

export const idempotencySchema = new Schema<IdempotencyDoc>(
  {
    tenantId: { type: String, required: true },
    key: String,
    scope: String,
    requestHash: String,
    status: String,
    response: Mixed,
    createdAt: Date,
    expiresAt: Date,
  },
  SCHEMA_OPTIONS,
);
idempotencySchema.index({ tenantId: 1, key: 1 }, { unique: true });
// Expired claims disappear on their own; begin() may replace them before the monitor runs.
idempotencySchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export const rateLimitSchema = new Schema<RateLimitDoc>(
  { key: String, consumed: Number, expiresAtMs: Number, expiresAt: Date },
  SCHEMA_OPTIONS,
);
rateLimitSchema.index({ key: 1 }, { unique: true });
rateLimitSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
