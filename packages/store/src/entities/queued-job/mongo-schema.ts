// The queued jobs collection. Every index the adapter relies on is declared here:
// createMongoStore's syncIndexes() drops the ones that are not.
import { Mixed, SCHEMA_OPTIONS, Schema, type MongoDoc } from '../../mongo/schema-kit';
import type { QueuedJob } from './record';

export type QueuedJobDoc = MongoDoc<
  QueuedJob,
  'runAt' | 'leaseExpiresAt' | 'createdAt' | 'updatedAt' | 'finishedAt'
>;

export const queuedJobSchema = new Schema<QueuedJobDoc>(
  {
    queue: String,
    id: String,
    tenantId: { type: String, required: true },
    data: Mixed,
    status: String,
    attempts: Number,
    maxAttempts: Number,
    backoffMs: Number,
    runAt: Date,
    owner: String,
    leaseExpiresAt: Date,
    error: String,
    createdAt: Date,
    updatedAt: Date,
    finishedAt: Date,
  },
  SCHEMA_OPTIONS,
);
// The job's key: the caller's id within its queue. Also serves get (the tenant is a filter).
queuedJobSchema.index({ queue: 1, id: 1 }, { unique: true });
// claim, across the queue's tenants: waiting jobs in runAt order, active ones by lease.
queuedJobSchema.index({ queue: 1, status: 1, runAt: 1 });
queuedJobSchema.index({ queue: 1, status: 1, leaseExpiresAt: 1 });
