// The live events collection. Every index the adapter relies on is declared here:
// createMongoStore's syncIndexes() drops the ones that are not.
import { Mixed, SCHEMA_OPTIONS, Schema, type MongoDoc } from '../../mongo/schema-kit';
import type { LiveEventRecord } from './record';

export type LiveEventDoc = MongoDoc<LiveEventRecord, 'createdAt'>;

// Store-wide, like the queue: the channel names its tenant, and only the event bus reads it.
export const liveEventSchema = new Schema<LiveEventDoc>(
  { seq: Number, channel: String, origin: String, data: Mixed, createdAt: Date },
  SCHEMA_OPTIONS,
);
// The counter hands out each seq once; the index keeps it so, and serves lastSeq.
liveEventSchema.index({ seq: 1 }, { unique: true });
// listAfter, polled several times a second by every process: the followed channels' events
// after the last seq seen.
liveEventSchema.index({ channel: 1, seq: 1 });
