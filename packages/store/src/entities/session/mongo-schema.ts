// The session and message collections. Every index the adapter relies on is declared here:
// createMongoStore's syncIndexes() drops the ones that are not.
import { SCHEMA_OPTIONS, Schema, tenantOwned, type MongoDoc } from '../../mongo/schema-kit';
import type { Message, Session } from './record';

export type SessionDoc = MongoDoc<Session, 'createdAt' | 'updatedAt'>;

export type MessageDoc = MongoDoc<Message, 'createdAt'>;

export const sessionSchema = new Schema<SessionDoc>(
  {
    ...tenantOwned,
    userId: String,
    status: String,
    url: String,
    title: String,
    createdAt: Date,
    updatedAt: Date,
  },
  SCHEMA_OPTIONS,
);
sessionSchema.index({ tenantId: 1, id: 1 }, { unique: true });
sessionSchema.index({ tenantId: 1, userId: 1, createdAt: -1, id: -1 });

export const messageSchema = new Schema<MessageDoc>(
  {
    ...tenantOwned,
    sessionId: String,
    seq: Number,
    role: String,
    content: String,
    actionString: String,
    taskId: String,
    status: String,
    error: String,
    domSummary: String,
    createdAt: Date,
  },
  SCHEMA_OPTIONS,
);
messageSchema.index({ tenantId: 1, id: 1 }, { unique: true });
// Unique: two racing appends can never share a seq.
messageSchema.index({ tenantId: 1, sessionId: 1, seq: 1 }, { unique: true });
