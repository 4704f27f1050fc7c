// Sessions and their messages. Message order is a per-session `seq` computed inside the
// INSERT itself, so two appends can never read the same MAX(seq).
import type { InValue, Row } from '@libsql/client';
import type { SqlClient } from '../../libsql/native-client';
import type { ActionStatus, MessageRole, SessionStatus } from '@tandem/contracts';
import {
  newMessageRecord,
  newSessionRecord,
  type Message,
  type MessageRepository,
  type Session,
  type SessionRepository,
} from './record';
import { clampLimit, decodeCursor, encodeCursor, nowIso } from '../../shared';
import { buildSet, firstRow, num, str, strOrNull } from '../../libsql/sql';

const toSession = (row: Row): Session => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  userId: str(row, 'user_id'),
  status: str(row, 'status') as SessionStatus,
  url: strOrNull(row, 'url'),
  title: strOrNull(row, 'title'),
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
});

export function libsqlSessions(client: SqlClient): SessionRepository {
  return {
    async create(tenantId, input) {
      const session = newSessionRecord(tenantId, input, nowIso());
      const result = await client.execute({
        sql: `INSERT INTO sessions (id, tenant_id, user_id, status, url, title, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        args: [
          session.id,
          session.tenantId,
          session.userId,
          session.status,
          session.url,
          session.title,
          session.createdAt,
          session.updatedAt,
        ],
      });
      return toSession(firstRow(result.rows));
    },
    async get(tenantId, id) {
      const result = await client.execute({
        sql: 'SELECT * FROM sessions WHERE tenant_id = ? AND id = ?',
        args: [tenantId, id],
      });
      const row = result.rows[0];
      return row ? toSession(row) : null;
    },
    async update(tenantId, id, patch) {
      const { assignments, args } = buildSet(patch, {
        status: { column: 'status' },
        url: { column: 'url' },
        title: { column: 'title' },
      });
      const result = await client.execute({
        sql: `UPDATE sessions SET ${[...assignments, 'updated_at = ?'].join(', ')}
              WHERE tenant_id = ? AND id = ? RETURNING *`,
        args: [...args, nowIso(), tenantId, id],
      });
      const row = result.rows[0];
      return row ? toSession(row) : null;
    },
    async listByUser(tenantId, userId, options = {}) {
      // Newest first; the cursor is the (createdAt, id) of the last item returned.
      const limit = clampLimit(options.limit, 50);
      const where = ['tenant_id = ?', 'user_id = ?'];
      const args: InValue[] = [tenantId, userId];
      const after = options.cursor ? decodeCursor(options.cursor) : null;
      if (after && after.length === 2) {
        where.push('(created_at < ? OR (created_at = ? AND id < ?))');
        args.push(String(after[0]), String(after[0]), String(after[1]));
      }
      const result = await client.execute({
        sql: `SELECT * FROM sessions WHERE ${where.join(' AND ')}
              ORDER BY created_at DESC, id DESC LIMIT ?`,
        args: [...args, limit + 1],
      });
      const items = result.rows.slice(0, limit).map(toSession);
      const last = items[items.length - 1];
      return {
        items,
        nextCursor:
          result.rows.length > limit && last ? encodeCursor([last.createdAt, last.id]) : null,
      };
    },
  };
}

const toMessage = (row: Row): Message => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  sessionId: str(row, 'session_id'),
  seq: num(row, 'seq'),
  role: str(row, 'role') as MessageRole,
  content: str(row, 'content'),
  actionString: strOrNull(row, 'action_string'),
  taskId: strOrNull(row, 'task_id'),
  status: strOrNull(row, 'status') as ActionStatus | null,
  error: strOrNull(row, 'error'),
  domSummary: strOrNull(row, 'dom_summary'),
  createdAt: str(row, 'created_at'),
});

export function libsqlMessages(client: SqlClient): MessageRepository {
  return {
    async append(tenantId, input) {
      const message = newMessageRecord(tenantId, input, nowIso());
      const result = await client.execute({
        sql: `INSERT INTO messages (id, tenant_id, session_id, seq, role, content, action_string,
                task_id, status, error, dom_summary, created_at)
              VALUES (?, ?, ?,
                (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE tenant_id = ? AND session_id = ?),
                ?, ?, ?, ?, ?, ?, ?, ?)
              RETURNING *`,
        args: [
          message.id,
          message.tenantId,
          message.sessionId,
          message.tenantId,
          message.sessionId,
          message.role,
          message.content,
          message.actionString,
          message.taskId,
          message.status,
          message.error,
          message.domSummary,
          message.createdAt,
        ],
      });
      return toMessage(firstRow(result.rows));
    },
    async list(tenantId, sessionId, options = {}) {
      if (options.limit === undefined) {
        const result = await client.execute({
          sql: 'SELECT * FROM messages WHERE tenant_id = ? AND session_id = ? ORDER BY seq',
          args: [tenantId, sessionId],
        });
        return result.rows.map(toMessage);
      }
      // The newest `limit`, handed back oldest first (the order a prompt reads them in).
      const result = await client.execute({
        sql: `SELECT * FROM (
                SELECT * FROM messages WHERE tenant_id = ? AND session_id = ?
                ORDER BY seq DESC LIMIT ?
              ) ORDER BY seq`,
        args: [tenantId, sessionId, Math.max(0, Math.floor(options.limit))],
      });
      return result.rows.map(toMessage);
    },
    async updateLast(tenantId, sessionId, patch) {
      const { assignments, args } = buildSet(patch, {
        status: { column: 'status' },
        error: { column: 'error' },
      });
      const newest = `(SELECT id FROM messages WHERE tenant_id = ? AND session_id = ?
                       ORDER BY seq DESC LIMIT 1)`;
      if (assignments.length === 0) {
        const result = await client.execute({
          sql: `SELECT * FROM messages WHERE tenant_id = ? AND id = ${newest}`,
          args: [tenantId, tenantId, sessionId],
        });
        const row = result.rows[0];
        return row ? toMessage(row) : null;
      }
      const result = await client.execute({
        sql: `UPDATE messages SET ${assignments.join(', ')}
              WHERE tenant_id = ? AND id = ${newest} RETURNING *`,
        args: [...args, tenantId, tenantId, sessionId],
      });
      const row = result.rows[0];
      return row ? toMessage(row) : null;
    },
  };
}
