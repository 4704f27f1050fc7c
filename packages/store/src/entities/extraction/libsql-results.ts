// Extraction results (docs/specs.md, "extraction overhaul"): one row per extraction of one page. A
// task's rows with the same extractionId are what the server merges into one aggregate, so they are
// read oldest first, whole (data can be hundreds of KB of JSON; it is one TEXT column like any
// other).
import type { InValue, Row } from '@libsql/client';
import type { ContentStats, ExtractionError, ExtractionMethod } from '@tandem/contracts';
import type { SqlClient } from '../../libsql/native-client';
import {
  newExtractionResultRecord,
  type ExtractionResultRecord,
  type ExtractionResultRepository,
} from './record';
import { clampLimit, nowIso } from '../../shared';
import { firstRow, iso, json, num, str, strOrNull, toJson } from '../../libsql/sql';

const toResult = (row: Row): ExtractionResultRecord => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  taskId: strOrNull(row, 'task_id'),
  extractionId: strOrNull(row, 'extraction_id'),
  query: str(row, 'query'),
  sourceUrl: strOrNull(row, 'source_url'),
  data: json<unknown>(row, 'data'),
  schemaUsed: json<Record<string, unknown> | null>(row, 'schema_used'),
  isPartial: num(row, 'is_partial') !== 0,
  method: str(row, 'method') as ExtractionMethod,
  contentStats: json<ContentStats>(row, 'content_stats'),
  warnings: json<string[]>(row, 'warnings'),
  errors: json<ExtractionError[]>(row, 'errors'),
  createdAt: str(row, 'created_at'),
});

export function libsqlExtractionResults(client: SqlClient): ExtractionResultRepository {
  return {
    async create(tenantId, input, now) {
      const record = newExtractionResultRecord(
        tenantId,
        input,
        now === undefined ? nowIso() : iso(now),
      );
      const result = await client.execute({
        sql: `INSERT INTO extraction_results (id, tenant_id, task_id, extraction_id, query,
                source_url, data, schema_used, is_partial, method, content_stats, warnings,
                errors, created_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        args: [
          record.id,
          record.tenantId,
          record.taskId,
          record.extractionId,
          record.query,
          record.sourceUrl,
          toJson(record.data),
          toJson(record.schemaUsed),
          record.isPartial ? 1 : 0,
          record.method,
          toJson(record.contentStats),
          toJson(record.warnings),
          toJson(record.errors),
          record.createdAt,
        ],
      });
      return toResult(firstRow(result.rows));
    },
    async get(tenantId, id) {
      const result = await client.execute({
        sql: 'SELECT * FROM extraction_results WHERE tenant_id = ? AND id = ?',
        args: [tenantId, id],
      });
      const row = result.rows[0];
      return row ? toResult(row) : null;
    },
    async listByTask(tenantId, taskId, options = {}) {
      const where = ['tenant_id = ?', 'task_id = ?'];
      const args: InValue[] = [tenantId, taskId];
      if (options.extractionId !== undefined) {
        where.push('extraction_id = ?');
        args.push(options.extractionId);
      }
      const result = await client.execute({
        sql: `SELECT * FROM extraction_results WHERE ${where.join(' AND ')}
              ORDER BY created_at, id LIMIT ?`,
        args: [...args, clampLimit(options.limit, 1000, 10_000)],
      });
      return result.rows.map(toResult);
    },
  };
}
