// Idempotency claims and rate-limit counters: both are single conditional UPSERTs, so the
// check and the write happen in one statement and no second request can slip between them.
import type { Row } from '@libsql/client';
import type { SqlClient } from '../../libsql/native-client';
import { DuplicateKeyError } from '../../port';
import {
  newIdempotencyRecord,
  type IdempotencyRecord,
  type IdempotencyRepository,
  type RateLimitRepository,
} from './record';
import { nowIso } from '../../shared';
import { iso, isoPlusMs, json, num, str, toJson } from '../../libsql/sql';

const toRecord = (row: Row): IdempotencyRecord => ({
  tenantId: str(row, 'tenant_id'),
  key: str(row, 'key'),
  scope: str(row, 'scope'),
  requestHash: str(row, 'request_hash'),
  status: str(row, 'status') as IdempotencyRecord['status'],
  response: json<unknown>(row, 'response'),
  createdAt: str(row, 'created_at'),
  expiresAt: str(row, 'expires_at'),
});

export function libsqlIdempotency(client: SqlClient): IdempotencyRepository {
  return {
    async begin(tenantId, input, now) {
      const claim = newIdempotencyRecord(tenantId, input, now === undefined ? nowIso() : iso(now));
      // An expired claim is replaced in place; a live one makes the conflict clause's WHERE
      // false, so nothing is written and nothing is returned.
      const result = await client.execute({
        sql: `INSERT INTO idempotency_keys (tenant_id, key, scope, request_hash, status, response,
                created_at, expires_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (tenant_id, key) DO UPDATE SET
                scope = excluded.scope,
                request_hash = excluded.request_hash,
                status = excluded.status,
                response = excluded.response,
                created_at = excluded.created_at,
                expires_at = excluded.expires_at
              WHERE idempotency_keys.expires_at <= excluded.created_at
              RETURNING *`,
        args: [
          claim.tenantId,
          claim.key,
          claim.scope,
          claim.requestHash,
          claim.status,
          // A claim's missing response stays SQL NULL, the form existing rows have, rather than
          // the JSON text "null" (both read back as null).
          claim.response === null ? null : toJson(claim.response),
          claim.createdAt,
          claim.expiresAt,
        ],
      });
      const row = result.rows[0];
      if (!row) throw new DuplicateKeyError(`idempotency key ${input.key}`);
      return toRecord(row);
    },
    async get(tenantId, key) {
      const result = await client.execute({
        sql: 'SELECT * FROM idempotency_keys WHERE tenant_id = ? AND key = ? AND expires_at > ?',
        args: [tenantId, key, nowIso()],
      });
      const row = result.rows[0];
      return row ? toRecord(row) : null;
    },
    async renew(tenantId, key, ttlMs, options = {}) {
      const at = options.now === undefined ? nowIso() : iso(options.now);
      const owned = options.requestHash === undefined ? '' : ' AND request_hash = ?';
      const result = await client.execute({
        sql: `UPDATE idempotency_keys SET expires_at = ?
              WHERE tenant_id = ? AND key = ? AND status = 'in_progress' AND expires_at > ?${owned}`,
        args: [
          isoPlusMs(at, ttlMs),
          tenantId,
          key,
          at,
          ...(options.requestHash === undefined ? [] : [options.requestHash]),
        ],
      });
      return result.rowsAffected > 0;
    },
    async complete(tenantId, key, response, options = {}) {
      const at = options.now === undefined ? nowIso() : iso(options.now);
      const expiresAt = options.ttlMs === undefined ? null : isoPlusMs(at, options.ttlMs);
      const result = await client.execute({
        sql: `UPDATE idempotency_keys SET status = 'completed', response = ?,
                expires_at = COALESCE(?, expires_at)
              WHERE tenant_id = ? AND key = ? RETURNING *`,
        args: [toJson(response ?? null), expiresAt, tenantId, key],
      });
      const row = result.rows[0];
      return row ? toRecord(row) : null;
    },
    async release(tenantId, key, options = {}) {
      const owned = options.requestHash === undefined ? '' : ' AND request_hash = ?';
      const result = await client.execute({
        sql: `DELETE FROM idempotency_keys WHERE tenant_id = ? AND key = ?${owned}`,
        args: [tenantId, key, ...(options.requestHash === undefined ? [] : [options.requestHash])],
      });
      return result.rowsAffected > 0;
    },
  };
}

export function libsqlRateLimits(client: SqlClient): RateLimitRepository {
  return {
    async increment(key, points, durationMs, nowMs = Date.now()) {
      // SET expressions all read the row as it was before the update, so both CASEs agree on
      // whether the old window had ended.
      const result = await client.execute({
        sql: `INSERT INTO rate_limits (key, consumed, expires_at_ms) VALUES (?, ?, ?)
              ON CONFLICT (key) DO UPDATE SET
                consumed = CASE WHEN rate_limits.expires_at_ms <= ? THEN excluded.consumed
                                ELSE rate_limits.consumed + excluded.consumed END,
                expires_at_ms = CASE WHEN rate_limits.expires_at_ms <= ? THEN excluded.expires_at_ms
                                     ELSE rate_limits.expires_at_ms END
              RETURNING consumed, expires_at_ms`,
        args: [key, points, nowMs + durationMs, nowMs, nowMs],
      });
      const row = result.rows[0];
      if (!row) throw new Error('libsql: rate limit upsert returned no row');
      return { consumed: num(row, 'consumed'), expiresAtMs: num(row, 'expires_at_ms') };
    },
    async get(key, nowMs = Date.now()) {
      const result = await client.execute({
        sql: 'SELECT consumed, expires_at_ms FROM rate_limits WHERE key = ? AND expires_at_ms > ?',
        args: [key, nowMs],
      });
      const row = result.rows[0];
      return row
        ? { consumed: num(row, 'consumed'), expiresAtMs: num(row, 'expires_at_ms') }
        : null;
    },
    async delete(key) {
      const result = await client.execute({
        sql: 'DELETE FROM rate_limits WHERE key = ?',
        args: [key],
      });
      return result.rowsAffected > 0;
    },
  };
}
