// Streaming collection: items a task gathers, unique per (task, type, uniqueKey), numbered
// by a per-task seq that readers page on with `afterSeq`.
import type { InValue, Row } from '@libsql/client';
import type { SqlClient } from '../../libsql/native-client';
import { newCollectedItemRecord, type CollectedItem, type CollectedItemRepository } from './record';
import { clampLimit, nowIso } from '../../shared';
import { firstRow, json, num, str, strOrNull, toJson } from '../../libsql/sql';

const toItem = (row: Row): CollectedItem => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  taskId: str(row, 'task_id'),
  type: str(row, 'type'),
  uniqueKey: str(row, 'unique_key'),
  data: json<Record<string, unknown>>(row, 'data'),
  sourceUrl: strOrNull(row, 'source_url'),
  seq: num(row, 'seq'),
  createdAt: str(row, 'created_at'),
});

export function libsqlCollectedItems(client: SqlClient): CollectedItemRepository {
  return {
    async insert(tenantId, input) {
      // The seq is computed inside the INSERT, and a duplicate does not consume one, so a
      // reader paging with afterSeq never sees gaps from rejected duplicates.
      const item = newCollectedItemRecord(tenantId, input, nowIso());
      const inserted = await client.execute({
        sql: `INSERT INTO collected_items (id, tenant_id, task_id, type, unique_key, data,
                source_url, seq, created_at)
              VALUES (?, ?, ?, ?, ?, ?, ?,
                (SELECT COALESCE(MAX(seq), 0) + 1 FROM collected_items
                 WHERE tenant_id = ? AND task_id = ?),
                ?)
              ON CONFLICT (tenant_id, task_id, type, unique_key) DO NOTHING
              RETURNING *`,
        args: [
          item.id,
          item.tenantId,
          item.taskId,
          item.type,
          item.uniqueKey,
          toJson(item.data),
          item.sourceUrl,
          item.tenantId,
          item.taskId,
          item.createdAt,
        ],
      });
      const row = inserted.rows[0];
      if (row) return { inserted: true, item: toItem(row) };
      const existing = await client.execute({
        sql: `SELECT * FROM collected_items
              WHERE tenant_id = ? AND task_id = ? AND type = ? AND unique_key = ?`,
        args: [tenantId, input.taskId, input.type, input.uniqueKey],
      });
      return { inserted: false, item: toItem(firstRow(existing.rows)) };
    },
    async list(tenantId, taskId, options = {}) {
      const where = ['tenant_id = ?', 'task_id = ?'];
      const args: InValue[] = [tenantId, taskId];
      if (options.type !== undefined) {
        where.push('type = ?');
        args.push(options.type);
      }
      if (options.afterSeq !== undefined) {
        where.push('seq > ?');
        args.push(options.afterSeq);
      }
      const result = await client.execute({
        sql: `SELECT * FROM collected_items WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ?`,
        args: [...args, clampLimit(options.limit, 1000, 10_000)],
      });
      return result.rows.map(toItem);
    },
    async countByType(tenantId, taskId) {
      const result = await client.execute({
        sql: `SELECT type, COUNT(*) AS n FROM collected_items
              WHERE tenant_id = ? AND task_id = ? GROUP BY type ORDER BY type`,
        args: [tenantId, taskId],
      });
      const counts: Record<string, number> = {};
      for (const row of result.rows) counts[str(row, 'type')] = num(row, 'n');
      return counts;
    },
  };
}
