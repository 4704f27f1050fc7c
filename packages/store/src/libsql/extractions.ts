// Extractions (one structured-data result per request) and the learned per-page strategies
// (selectors) that make the next extraction of the same page shape cheap.
import type { InValue, Row } from '@libsql/client';
import type { SqlClient } from './native-client';
import type {
  Extraction,
  ExtractionRepository,
  ExtractionStrategy,
  ExtractionStrategyRepository,
} from '../port';
import { newExtractionRecord, newExtractionStrategyRecord } from '../record-defaults';
import { clampLimit, nowIso } from '../shared';
import { buildSet, firstRow, iso, json, num, str, strOrNull, toJson } from './sql';

const toExtraction = (row: Row): Extraction => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  taskId: strOrNull(row, 'task_id'),
  url: str(row, 'url'),
  schema: json<Record<string, unknown>>(row, 'schema'),
  data: json<unknown>(row, 'data'),
  status: str(row, 'status') as Extraction['status'],
  error: strOrNull(row, 'error'),
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
});

export function libsqlExtractions(client: SqlClient): ExtractionRepository {
  return {
    async create(tenantId, input) {
      const extraction = newExtractionRecord(tenantId, input, nowIso());
      const result = await client.execute({
        sql: `INSERT INTO extractions (id, tenant_id, task_id, url, schema, data, status, error,
                created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        args: [
          extraction.id,
          extraction.tenantId,
          extraction.taskId,
          extraction.url,
          toJson(extraction.schema),
          toJson(extraction.data),
          extraction.status,
          extraction.error,
          extraction.createdAt,
          extraction.updatedAt,
        ],
      });
      return toExtraction(firstRow(result.rows));
    },
    async get(tenantId, id) {
      const result = await client.execute({
        sql: 'SELECT * FROM extractions WHERE tenant_id = ? AND id = ?',
        args: [tenantId, id],
      });
      const row = result.rows[0];
      return row ? toExtraction(row) : null;
    },
    async list(tenantId, options = {}) {
      const where = ['tenant_id = ?'];
      const args: InValue[] = [tenantId];
      if (options.taskId !== undefined) {
        where.push('task_id = ?');
        args.push(options.taskId);
      }
      const result = await client.execute({
        sql: `SELECT * FROM extractions WHERE ${where.join(' AND ')}
              ORDER BY created_at DESC, id DESC LIMIT ?`,
        args: [...args, clampLimit(options.limit, 50)],
      });
      return result.rows.map(toExtraction);
    },
    async update(tenantId, id, patch) {
      const { assignments, args } = buildSet(patch, {
        data: { column: 'data', encode: toJson },
        status: { column: 'status' },
        error: { column: 'error' },
      });
      const result = await client.execute({
        sql: `UPDATE extractions SET ${[...assignments, 'updated_at = ?'].join(', ')}
              WHERE tenant_id = ? AND id = ? RETURNING *`,
        args: [...args, nowIso(), tenantId, id],
      });
      const row = result.rows[0];
      return row ? toExtraction(row) : null;
    },
  };
}

const toStrategy = (row: Row): ExtractionStrategy => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  domain: str(row, 'domain'),
  pathPattern: str(row, 'path_pattern'),
  schemaHash: str(row, 'schema_hash'),
  selectors: json<Record<string, string>>(row, 'selectors'),
  successCount: num(row, 'success_count'),
  failureCount: num(row, 'failure_count'),
  lastUsed: str(row, 'last_used'),
  createdAt: str(row, 'created_at'),
});

export function libsqlExtractionStrategies(client: SqlClient): ExtractionStrategyRepository {
  return {
    async upsert(tenantId, input, now) {
      const strategy = newExtractionStrategyRecord(
        tenantId,
        input,
        now === undefined ? nowIso() : iso(now),
      );
      // Relearned selectors replace the old ones; the counters keep the strategy's history.
      const result = await client.execute({
        sql: `INSERT INTO extraction_strategies (id, tenant_id, domain, path_pattern, schema_hash,
                selectors, success_count, failure_count, last_used, created_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (tenant_id, domain, path_pattern, schema_hash)
              DO UPDATE SET selectors = excluded.selectors, last_used = excluded.last_used
              RETURNING *`,
        args: [
          strategy.id,
          strategy.tenantId,
          strategy.domain,
          strategy.pathPattern,
          strategy.schemaHash,
          toJson(strategy.selectors),
          strategy.successCount,
          strategy.failureCount,
          strategy.lastUsed,
          strategy.createdAt,
        ],
      });
      return toStrategy(firstRow(result.rows));
    },
    async find(tenantId, input) {
      const result = await client.execute({
        sql: `SELECT * FROM extraction_strategies
              WHERE tenant_id = ? AND domain = ? AND path_pattern = ? AND schema_hash = ?`,
        args: [tenantId, input.domain, input.pathPattern, input.schemaHash],
      });
      const row = result.rows[0];
      return row ? toStrategy(row) : null;
    },
    async recordResult(tenantId, id, success, now) {
      const column = success ? 'success_count' : 'failure_count';
      const result = await client.execute({
        sql: `UPDATE extraction_strategies SET ${column} = ${column} + 1, last_used = ?
              WHERE tenant_id = ? AND id = ? RETURNING *`,
        args: [now === undefined ? nowIso() : iso(now), tenantId, id],
      });
      const row = result.rows[0];
      return row ? toStrategy(row) : null;
    },
    async delete(tenantId, id) {
      const result = await client.execute({
        sql: 'DELETE FROM extraction_strategies WHERE tenant_id = ? AND id = ?',
        args: [tenantId, id],
      });
      return result.rowsAffected > 0;
    },
  };
}
