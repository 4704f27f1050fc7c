// Sessions and their messages. Message order is a per-session `seq` taken from an atomic
// counter, so two concurrent appends never get the same number.
import type { Message, MessageRepository, Session, SessionRepository } from '../port';
import { newMessageRecord, newSessionRecord } from '../record-defaults';
import { clampLimit, encodeCursor, nowIso } from '../shared';
import type { MessageDoc, SessionDoc } from './documents';
import type { MongoModels } from './schemas';
import { iso, nextSeq, nowDate, olderThanCursor, orNull, toDate } from './util';

const toSession = (doc: SessionDoc): Session => ({
  id: doc.id,
  tenantId: doc.tenantId,
  userId: doc.userId,
  status: doc.status,
  url: orNull(doc.url),
  title: orNull(doc.title),
  createdAt: iso(doc.createdAt),
  updatedAt: iso(doc.updatedAt),
});

export function mongoSessions({ sessions }: MongoModels): SessionRepository {
  return {
    async create(tenantId, input) {
      const session = newSessionRecord(tenantId, input, nowIso());
      const doc: SessionDoc = {
        ...session,
        createdAt: toDate(session.createdAt),
        updatedAt: toDate(session.updatedAt),
      };
      await sessions.create(doc);
      return toSession(doc);
    },
    async get(tenantId, id) {
      const doc = await sessions.findOne({ tenantId, id }).lean().exec();
      return doc ? toSession(doc) : null;
    },
    async update(tenantId, id, patch) {
      const set: Partial<SessionDoc> = { updatedAt: nowDate() };
      // Partial semantics: a key set to undefined is "not given", never "clear it".
      if (patch.status !== undefined) set.status = patch.status;
      if (patch.url !== undefined) set.url = patch.url;
      if (patch.title !== undefined) set.title = patch.title;
      const doc = await sessions
        .findOneAndUpdate({ tenantId, id }, { $set: set }, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toSession(doc) : null;
    },
    async listByUser(tenantId, userId, options = {}) {
      const limit = clampLimit(options.limit, 50);
      const docs = await sessions
        .find({ tenantId, userId, ...olderThanCursor(options.cursor) })
        .sort({ createdAt: -1, id: -1 })
        .limit(limit + 1)
        .lean()
        .exec();
      const items = docs.slice(0, limit).map(toSession);
      const last = items[items.length - 1];
      return {
        items,
        nextCursor: docs.length > limit && last ? encodeCursor([last.createdAt, last.id]) : null,
      };
    },
  };
}

const toMessage = (doc: MessageDoc): Message => ({
  id: doc.id,
  tenantId: doc.tenantId,
  sessionId: doc.sessionId,
  seq: doc.seq,
  role: doc.role,
  content: doc.content,
  actionString: orNull(doc.actionString),
  taskId: orNull(doc.taskId),
  status: orNull(doc.status),
  error: orNull(doc.error),
  domSummary: orNull(doc.domSummary),
  createdAt: iso(doc.createdAt),
});

export function mongoMessages({ messages, counters }: MongoModels): MessageRepository {
  return {
    async append(tenantId, input) {
      const seq = await nextSeq(counters, tenantId, 'messages', input.sessionId);
      const message = newMessageRecord(tenantId, input, nowIso());
      const doc: MessageDoc = { ...message, seq, createdAt: toDate(message.createdAt) };
      await messages.create(doc);
      return toMessage(doc);
    },
    async list(tenantId, sessionId, options = {}) {
      if (options.limit === undefined) {
        const docs = await messages.find({ tenantId, sessionId }).sort({ seq: 1 }).lean().exec();
        return docs.map(toMessage);
      }
      // Mongo reads limit(0) as "no limit"; the port means "none".
      const limit = Math.max(0, Math.floor(options.limit));
      if (limit === 0) return [];
      // The newest `limit`, handed back oldest first (the order a prompt reads them in).
      const docs = await messages
        .find({ tenantId, sessionId })
        .sort({ seq: -1 })
        .limit(limit)
        .lean()
        .exec();
      return docs.reverse().map(toMessage);
    },
    async updateLast(tenantId, sessionId, patch) {
      const set: Partial<MessageDoc> = {};
      if (patch.status !== undefined) set.status = patch.status;
      if (patch.error !== undefined) set.error = patch.error;
      // One atomic operation picks the newest message and patches it.
      const doc =
        Object.keys(set).length === 0
          ? await messages.findOne({ tenantId, sessionId }).sort({ seq: -1 }).lean().exec()
          : await messages
              .findOneAndUpdate(
                { tenantId, sessionId },
                { $set: set },
                { sort: { seq: -1 }, returnDocument: 'after' },
              )
              .lean()
              .exec();
      return doc ? toMessage(doc) : null;
    },
  };
}
