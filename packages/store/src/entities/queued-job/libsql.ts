// The embedded job queue's rows. Several processes share the database file, so every
// check-then-write here is one statement: SQLite takes the write lock before a write statement
// reads anything, so no other connection can change the rows between what a statement's WHERE
// (sub-selects included) sees and what it writes. Two claimers never get the same job, and a
// worker whose lease ran out cannot finish an attempt another worker now holds.
import type { Row } from '@libsql/client';
import { newQueuedJobRecord, type QueuedJob, type QueuedJobRepository } from './record';
import { clampLimit, nowIso } from '../../shared';
import type { SqlClient } from '../../libsql/native-client';
import { firstRow, iso, isoPlusMs, json, num, str, strOrNull, toJson } from '../../libsql/sql';

const toJob = (row: Row): QueuedJob => ({
  id: str(row, 'id'),
  queue: str(row, 'queue'),
  tenantId: str(row, 'tenant_id'),
  data: json<unknown>(row, 'data'),
  status: str(row, 'status') as QueuedJob['status'],
  attempts: num(row, 'attempts'),
  maxAttempts: num(row, 'max_attempts'),
  backoffMs: num(row, 'backoff_ms'),
  runAt: str(row, 'run_at'),
  owner: strOrNull(row, 'owner'),
  leaseExpiresAt: strOrNull(row, 'lease_expires_at'),
  error: strOrNull(row, 'error'),
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
  finishedAt: strOrNull(row, 'finished_at'),
});

const at = (now: string | undefined): string => (now === undefined ? nowIso() : iso(now));

/** The attempt `owner` is running: active, its own, and its lease not yet run out. */
const HELD = `queue = ? AND id = ? AND status = 'active' AND owner = ? AND lease_expires_at >= ?`;

/** Active, its lease run out and no attempt left: for abandon, never for claim. */
const EXHAUSTED = `status = 'active' AND lease_expires_at < ? AND attempts >= max_attempts`;

/**
 * The job claim takes: the queue's earliest runnable one. A job whose lease ran out is
 * runnable again only with an attempt left (one without is `EXHAUSTED`). Under
 * `onePerTenant` a tenant with a live active job waits; an expired lease does not count, or a
 * dead worker's job would hold its tenant back until abandoned. The status IN list is
 * redundant but lets the planner search the claim index by (queue, status) instead of reading
 * every finished job of the queue.
 */
const claimSql = (onePerTenant: boolean): string => `
  UPDATE queued_jobs
  SET status = 'active', owner = ?, lease_expires_at = ?, attempts = attempts + 1, updated_at = ?
  WHERE queue = ? AND id = (
    SELECT j.id FROM queued_jobs AS j
    WHERE j.queue = ? AND j.status IN ('waiting', 'active')
      AND ((j.status = 'waiting' AND j.run_at <= ?)
        OR (j.status = 'active' AND j.lease_expires_at < ? AND j.attempts < j.max_attempts))
      ${
        onePerTenant
          ? `AND NOT EXISTS (
        SELECT 1 FROM queued_jobs AS busy
        WHERE busy.queue = j.queue AND busy.status = 'active'
          AND busy.tenant_id = j.tenant_id AND busy.lease_expires_at >= ?)`
          : ''
      }
    ORDER BY j.run_at, j.created_at, j.id
    LIMIT 1
  )
  RETURNING *`;

const CLAIM_SQL = claimSql(false);
const CLAIM_ONE_PER_TENANT_SQL = claimSql(true);

export function libsqlQueuedJobs(client: SqlClient): QueuedJobRepository {
  return {
    async add(input, now) {
      const job = newQueuedJobRecord(input, at(now));
      // DO NOTHING returns no row on a conflict; the row that won is then read back. Jobs are
      // never deleted, so it is still there.
      const inserted = await client.execute({
        sql: `INSERT INTO queued_jobs (queue, id, tenant_id, data, status, attempts, max_attempts,
                backoff_ms, run_at, owner, lease_expires_at, error, created_at, updated_at,
                finished_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (queue, id) DO NOTHING
              RETURNING *`,
        args: [
          job.queue,
          job.id,
          job.tenantId,
          toJson(job.data),
          job.status,
          job.attempts,
          job.maxAttempts,
          job.backoffMs,
          job.runAt,
          job.owner,
          job.leaseExpiresAt,
          job.error,
          job.createdAt,
          job.updatedAt,
          job.finishedAt,
        ],
      });
      const row = inserted.rows[0];
      if (row) return { job: toJob(row), created: true };
      const existing = await client.execute({
        sql: 'SELECT * FROM queued_jobs WHERE queue = ? AND id = ?',
        args: [job.queue, job.id],
      });
      return { job: toJob(firstRow(existing.rows)), created: false };
    },

    async get(tenantId, queue, id) {
      const result = await client.execute({
        sql: 'SELECT * FROM queued_jobs WHERE queue = ? AND id = ? AND tenant_id = ?',
        args: [queue, id, tenantId],
      });
      const row = result.rows[0];
      return row ? toJob(row) : null;
    },

    async claim(queue, owner, leaseMs, options = {}, now) {
      const time = at(now);
      const onePerTenant = options.onePerTenant === true;
      const result = await client.execute({
        sql: onePerTenant ? CLAIM_ONE_PER_TENANT_SQL : CLAIM_SQL,
        args: [
          owner,
          isoPlusMs(time, leaseMs),
          time,
          queue,
          queue,
          time,
          time,
          ...(onePerTenant ? [time] : []),
        ],
      });
      const row = result.rows[0];
      return row ? toJob(row) : null;
    },

    async renew(queue, id, owner, leaseMs, now) {
      const time = at(now);
      const result = await client.execute({
        sql: `UPDATE queued_jobs SET lease_expires_at = ?, updated_at = ? WHERE ${HELD}`,
        args: [isoPlusMs(time, leaseMs), time, queue, id, owner, time],
      });
      return result.rowsAffected > 0;
    },

    async complete(queue, id, owner, now) {
      const time = at(now);
      const result = await client.execute({
        sql: `UPDATE queued_jobs SET status = 'completed', owner = NULL, lease_expires_at = NULL,
                finished_at = ?, updated_at = ?
              WHERE ${HELD}`,
        args: [time, time, queue, id, owner, time],
      });
      return result.rowsAffected > 0;
    },

    async fail(queue, id, owner, error, retryAt, now) {
      const time = at(now);
      const result =
        retryAt === null
          ? await client.execute({
              sql: `UPDATE queued_jobs SET status = 'failed', error = ?, owner = NULL,
                      lease_expires_at = NULL, finished_at = ?, updated_at = ?
                    WHERE ${HELD}`,
              args: [error, time, time, queue, id, owner, time],
            })
          : await client.execute({
              sql: `UPDATE queued_jobs SET status = 'waiting', error = ?, run_at = ?, owner = NULL,
                      lease_expires_at = NULL, updated_at = ?
                    WHERE ${HELD}`,
              args: [error, iso(retryAt), time, queue, id, owner, time],
            });
      return result.rowsAffected > 0;
    },

    async release(queue, id, owner, now) {
      const time = at(now);
      // Its place in line is kept (runAt is already due; MIN only guards a caller's earlier now).
      const result = await client.execute({
        sql: `UPDATE queued_jobs SET status = 'waiting', attempts = attempts - 1,
                run_at = MIN(run_at, ?), owner = NULL, lease_expires_at = NULL, updated_at = ?
              WHERE ${HELD}`,
        args: [time, time, queue, id, owner, time],
      });
      return result.rowsAffected > 0;
    },

    async abandon(queue, id, error, now) {
      const time = at(now);
      const result = await client.execute({
        sql: `UPDATE queued_jobs SET status = 'failed', error = ?, owner = NULL,
                lease_expires_at = NULL, finished_at = ?, updated_at = ?
              WHERE queue = ? AND id = ? AND ${EXHAUSTED}`,
        args: [error, time, time, queue, id, time],
      });
      return result.rowsAffected > 0;
    },

    async retry(tenantId, queue, id, now) {
      const time = at(now);
      const result = await client.execute({
        sql: `UPDATE queued_jobs SET status = 'waiting', attempts = 0, run_at = ?, owner = NULL,
                lease_expires_at = NULL, error = NULL, finished_at = NULL, updated_at = ?
              WHERE queue = ? AND id = ? AND tenant_id = ? AND status = 'failed'
              RETURNING *`,
        args: [time, time, queue, id, tenantId],
      });
      const row = result.rows[0];
      return row ? toJob(row) : null;
    },

    async listExhausted(queue, options = {}, now) {
      const result = await client.execute({
        sql: `SELECT * FROM queued_jobs WHERE queue = ? AND ${EXHAUSTED}
              ORDER BY created_at, id LIMIT ?`,
        args: [queue, at(now), clampLimit(options.limit, 20)],
      });
      return result.rows.map(toJob);
    },
  };
}
