// Sessions and their messages. Message order is a per-session `seq` taken from an atomic
// counter, so two concurrent appends never get the same number.
import {
  newMessageRecord,
  newSessionRecord,
  type Message,
  type MessageRepository,
  type Session,
  type SessionRepository,
} from './record';
import { clampLimit, encodeCursor, nowIso } from '../../shared';
import type { MessageDoc, SessionDoc } from './mongo-schema';
import {
  lastMessageUpdate,
  messagesQuery,
  sessionFilter,
  sessionsByUserQuery,
  sessionUpdate,
} from './mongo-queries';
import type { MongoModels } from '../../mongo/schemas';
import { iso, nextSeq, nowDate, orNull, toDate } from '../../mongo/util';

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
      const doc = await sessions.findOne(sessionFilter(tenantId, id)).lean().exec();
      return doc ? toSession(doc) : null;
    },
    async update(tenantId, id, patch) {
      const { filter, update } = sessionUpdate(tenantId, id, patch, nowDate());
      const doc = await sessions
        .findOneAndUpdate(filter, update, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toSession(doc) : null;
    },
    async listByUser(tenantId, userId, options = {}) {
      const limit = clampLimit(options.limit, 50);
      const query = sessionsByUserQuery(tenantId, userId, options.cursor, limit);
      const docs = await sessions
        .find(query.filter)
        .sort(query.sort)
        .limit(query.limit ?? limit + 1)
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
        const all = messagesQuery(tenantId, sessionId);
        const docs = await messages.find(all.filter).sort(all.sort).lean().exec();
        return docs.map(toMessage);
      }
      // Mongo reads limit(0) as "no limit"; the port means "none".
      const limit = Math.max(0, Math.floor(options.limit));
      if (limit === 0) return [];
      // The newest `limit`, handed back oldest first (the order a prompt reads them in).
      const newest = messagesQuery(tenantId, sessionId, limit);
      const docs = await messages.find(newest.filter).sort(newest.sort).limit(limit).lean().exec();
      return docs.reverse().map(toMessage);
    },
    async updateLast(tenantId, sessionId, patch) {
      const set: Partial<MessageDoc> = {};
      if (patch.status !== undefined) set.status = patch.status;
      if (patch.error !== undefined) set.error = patch.error;
      // One atomic operation picks the newest message and patches it.
      const { filter, update, sort } = lastMessageUpdate(tenantId, sessionId, set);
      const doc =
        Object.keys(set).length === 0
          ? await messages.findOne(filter).sort(sort).lean().exec()
          : await messages
              .findOneAndUpdate(filter, update, { sort, returnDocument: 'after' })
              .lean()
              .exec();
      return doc ? toMessage(doc) : null;
    },
  };
}
