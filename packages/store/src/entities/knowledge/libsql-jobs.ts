// Knowledge jobs: crawls (POST /api/knowledge/index-link: request, progress and the
// frontier/visited state a restarted server resumes from) and uploads (`upload`). The lists and
// `upload` are JSON columns: they are only ever read and written whole, together with the job.
import type { InValue, Row } from '@libsql/client';
import {
  emptyKnowledgeJobProgress,
  newKnowledgeJobRecord,
  type KnowledgeJob,
  type KnowledgeJobRepository,
} from './record';
import { clampLimit, nowIso } from '../../shared';
import type { SqlClient } from '../../libsql/native-client';
import {
  buildSet,
  firstRow,
  iso,
  json,
  num,
  placeholders,
  str,
  strOrNull,
  toJson,
} from '../../libsql/sql';

const toJob = (row: Row): KnowledgeJob => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  userId: strOrNull(row, 'user_id'),
  kind: str(row, 'kind') as KnowledgeJob['kind'],
  upload: json<KnowledgeJob['upload']>(row, 'upload') ?? null,
  url: str(row, 'url'),
  strategy: str(row, 'strategy') as KnowledgeJob['strategy'],
  maxPages: num(row, 'max_pages'),
  maxDepth: num(row, 'max_depth'),
  domain: str(row, 'domain'),
  status: str(row, 'status') as KnowledgeJob['status'],
  progress: json<KnowledgeJob['progress'] | null>(row, 'progress') ?? emptyKnowledgeJobProgress(),
  frontier: json<KnowledgeJob['frontier'] | null>(row, 'frontier') ?? [],
  visited: json<string[] | null>(row, 'visited') ?? [],
  errors: json<KnowledgeJob['errors'] | null>(row, 'errors') ?? [],
  error: strOrNull(row, 'error'),
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
  startedAt: strOrNull(row, 'started_at'),
  finishedAt: strOrNull(row, 'finished_at'),
});

const isoOrNull = (value: string | null | undefined): string | null =>
  value === null || value === undefined ? null : iso(value);

export function libsqlKnowledgeJobs(client: SqlClient): KnowledgeJobRepository {
  return {
    async create(tenantId, input) {
      const job = newKnowledgeJobRecord(tenantId, input, nowIso());
      const result = await client.execute({
        sql: `INSERT INTO knowledge_jobs (id, tenant_id, user_id, kind, url, strategy, max_pages,
                max_depth, domain, status, progress, frontier, visited, errors, error, created_at,
                updated_at, started_at, finished_at, upload)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        args: [
          job.id,
          job.tenantId,
          job.userId,
          job.kind,
          job.url,
          job.strategy,
          job.maxPages,
          job.maxDepth,
          job.domain,
          job.status,
          toJson(job.progress),
          toJson(job.frontier),
          toJson(job.visited),
          toJson(job.errors),
          job.error,
          job.createdAt,
          job.updatedAt,
          job.startedAt,
          job.finishedAt,
          toJson(job.upload),
        ],
      });
      return toJob(firstRow(result.rows));
    },

    async get(tenantId, id) {
      const result = await client.execute({
        sql: 'SELECT * FROM knowledge_jobs WHERE tenant_id = ? AND id = ?',
        args: [tenantId, id],
      });
      const row = result.rows[0];
      return row ? toJob(row) : null;
    },

    async list(tenantId, options = {}) {
      const where = ['tenant_id = ?'];
      const args: InValue[] = [tenantId];
      if (options.status !== undefined) {
        if (options.status.length === 0) return [];
        where.push(`status IN (${placeholders(options.status.length)})`);
        args.push(...options.status);
      }
      if (options.kind !== undefined) {
        where.push('kind = ?');
        args.push(options.kind);
      }
      const result = await client.execute({
        sql: `SELECT * FROM knowledge_jobs WHERE ${where.join(' AND ')}
              ORDER BY created_at DESC, id DESC LIMIT ?`,
        args: [...args, clampLimit(options.limit, 50)],
      });
      return result.rows.map(toJob);
    },

    async update(tenantId, id, patch, options = {}) {
      const { assignments, args } = buildSet(patch, {
        status: { column: 'status' },
        progress: { column: 'progress', encode: toJson },
        frontier: { column: 'frontier', encode: toJson },
        visited: { column: 'visited', encode: toJson },
        errors: { column: 'errors', encode: toJson },
        error: { column: 'error' },
        startedAt: { column: 'started_at', encode: isoOrNull },
        finishedAt: { column: 'finished_at', encode: isoOrNull },
        upload: { column: 'upload', encode: toJson },
      });
      const open =
        patch.status === undefined ? `'queued', 'running', 'cancelled'` : `'queued', 'running'`;
      const guard = options.unlessFinished ? ` AND status IN (${open})` : '';
      const result = await client.execute({
        sql: `UPDATE knowledge_jobs SET ${[...assignments, 'updated_at = ?'].join(', ')}
              WHERE tenant_id = ? AND id = ?${guard} RETURNING *`,
        args: [...args, nowIso(), tenantId, id],
      });
      const row = result.rows[0];
      if (row || !options.unlessFinished) return row ? toJob(row) : null;
      // Finished (or gone): as stored.
      const stored = await client.execute({
        sql: 'SELECT * FROM knowledge_jobs WHERE tenant_id = ? AND id = ?',
        args: [tenantId, id],
      });
      return stored.rows[0] ? toJob(stored.rows[0]) : null;
    },

    async listUnfinished() {
      // Spelled exactly like the partial index's WHERE, so the planner can use it.
      const result = await client.execute(
        `SELECT * FROM knowledge_jobs WHERE status IN ('queued', 'running')
         ORDER BY created_at, id`,
      );
      return result.rows.map(toJob);
    },
  };
}
