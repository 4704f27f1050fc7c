// The collected items collection. Every index the adapter relies on is declared here:
// createMongoStore's syncIndexes() drops the ones that are not.
import { Mixed, SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import type { CollectedItem } from './record';

export type CollectedItemDoc = MongoDoc<CollectedItem, 'createdAt', 'data'>;

export const collectedItemSchema = new Schema<CollectedItemDoc>(
  {
    ...tenantOwned,
    taskId: String,
    // Spelled out: a bare `type: String` would read as this object's own type declaration.
    type: { type: String },
    uniqueKey: String,
    data: Mixed,
    sourceUrl: String,
    seq: Number,
    createdAt: Date,
  },
  SCHEMA_OPTIONS,
);
collectedItemSchema.index({ tenantId: 1, id: 1 }, { unique: true });
collectedItemSchema.index({ tenantId: 1, taskId: 1, type: 1, uniqueKey: 1 }, { unique: true });
collectedItemSchema.index({ tenantId: 1, taskId: 1, seq: 1 });
collectedItemSchema.index({ tenantId: 1, taskId: 1, type: 1, seq: 1 });
