// Token usage: an append-only log keyed by generation id, summed by SQL GROUP BY.
import type { InValue, Row } from '@libsql/client';
import type { SqlClient } from '../../libsql/native-client';
import type { LlmActionType, LlmProvider } from '@tandem/contracts';
import type { TokenUsageLog, TokenUsageRepository, UsageGroupBy, UsageRollupRow } from './record';
import { clampLimit } from '../../shared';
import { iso, num, placeholders, str, strOrNull } from '../../libsql/sql';

const toLog = (row: Row): TokenUsageLog => ({
  id: str(row, 'id'),
  partOf: strOrNull(row, 'part_of'),
  tenantId: str(row, 'tenant_id'),
  userId: strOrNull(row, 'user_id'),
  sessionId: strOrNull(row, 'session_id'),
  messageId: strOrNull(row, 'message_id'),
  taskId: strOrNull(row, 'task_id'),
  traceId: strOrNull(row, 'trace_id'),
  provider: str(row, 'provider') as LlmProvider,
  model: str(row, 'model'),
  actionType: str(row, 'action_type') as LlmActionType,
  inputTokens: num(row, 'input_tokens'),
  outputTokens: num(row, 'output_tokens'),
  cachedInputTokens: num(row, 'cached_input_tokens'),
  thinkingTokens: num(row, 'thinking_tokens'),
  totalTokens: num(row, 'total_tokens'),
  costMicroUsd: num(row, 'cost_micro_usd'),
  durationMs: num(row, 'duration_ms'),
  timestamp: str(row, 'timestamp'),
});

/** The SQL expression each grouping sums by; day is the UTC date prefix of the ISO time. */
const GROUP_KEYS: Record<UsageGroupBy, string> = {
  day: 'substr(timestamp, 1, 10)',
  model: 'model',
  actionType: 'action_type',
  user: "COALESCE(user_id, '')",
};

function windowWhere(
  tenantId: string,
  options: { from?: string; to?: string },
): { where: string[]; args: InValue[] } {
  const where = ['tenant_id = ?'];
  const args: InValue[] = [tenantId];
  if (options.from !== undefined) {
    where.push('timestamp >= ?');
    args.push(iso(options.from));
  }
  if (options.to !== undefined) {
    where.push('timestamp < ?');
    args.push(iso(options.to));
  }
  return { where, args };
}

const SUMS = `SUM(CASE WHEN part_of IS NULL THEN 1 ELSE 0 END) AS calls, SUM(input_tokens) AS input_tokens,
  SUM(cached_input_tokens) AS cached_input_tokens,
  SUM(output_tokens) AS output_tokens, SUM(total_tokens) AS total_tokens,
  SUM(cost_micro_usd) AS cost_micro_usd`;

const toRollupRow = (row: Row): UsageRollupRow => ({
  key: str(row, 'key'),
  calls: num(row, 'calls'),
  inputTokens: num(row, 'input_tokens'),
  cachedInputTokens: num(row, 'cached_input_tokens'),
  outputTokens: num(row, 'output_tokens'),
  totalTokens: num(row, 'total_tokens'),
  costMicroUsd: num(row, 'cost_micro_usd'),
});

/** Task ids per IN (…) list, far below SQLite's variable limit. */
const IDS_PER_STATEMENT = 500;

export function libsqlTokenUsage(client: SqlClient): TokenUsageRepository {
  return {
    async append(tenantId, input) {
      const result = await client.execute({
        sql: `INSERT INTO token_usage (id, tenant_id, user_id, session_id, message_id, task_id,
                trace_id, provider, model, action_type, input_tokens, output_tokens,
                cached_input_tokens, thinking_tokens, total_tokens, cost_micro_usd, duration_ms,
                timestamp, part_of)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (id) DO NOTHING`,
        args: [
          input.id,
          tenantId,
          input.userId,
          input.sessionId,
          input.messageId,
          input.taskId,
          input.traceId,
          input.provider,
          input.model,
          input.actionType,
          input.inputTokens,
          input.outputTokens,
          input.cachedInputTokens,
          input.thinkingTokens,
          input.totalTokens,
          input.costMicroUsd,
          input.durationMs,
          iso(input.timestamp),
          input.partOf ?? null,
        ],
      });
      return result.rowsAffected > 0;
    },
    async list(tenantId, options = {}) {
      const { where, args } = windowWhere(tenantId, options);
      if (options.taskId !== undefined) {
        where.push('task_id = ?');
        args.push(options.taskId);
      }
      const result = await client.execute({
        sql: `SELECT * FROM token_usage WHERE ${where.join(' AND ')}
              ORDER BY timestamp, rowid LIMIT ?`,
        args: [...args, clampLimit(options.limit, 1000, 10_000)],
      });
      return result.rows.map(toLog);
    },
    async rollup(tenantId, options) {
      const { where, args } = windowWhere(tenantId, options);
      const key = GROUP_KEYS[options.groupBy];
      const result = await client.execute({
        sql: `SELECT ${key} AS key, ${SUMS}
              FROM token_usage WHERE ${where.join(' AND ')}
              GROUP BY 1 ORDER BY 1`,
        args,
      });
      return result.rows.map(toRollupRow);
    },
    async rollupSeries(tenantId, options) {
      const { where, args } = windowWhere(tenantId, options);
      const result = await client.execute({
        sql: `SELECT ${GROUP_KEYS[options.groupBy]} AS key, ${GROUP_KEYS[options.seriesBy]} AS series,
                ${SUMS}
              FROM token_usage WHERE ${where.join(' AND ')}
              GROUP BY 1, 2 ORDER BY 1, 2`,
        args,
      });
      return result.rows.map((row) => ({ ...toRollupRow(row), series: str(row, 'series') }));
    },
    async totalsByTask(tenantId, taskIds) {
      const ids = [...new Set(taskIds)].sort();
      const rows: UsageRollupRow[] = [];
      for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
        const chunk = ids.slice(start, start + IDS_PER_STATEMENT);
        const result = await client.execute({
          sql: `SELECT task_id AS key, ${SUMS} FROM token_usage
                WHERE tenant_id = ? AND task_id IN (${placeholders(chunk.length)})
                GROUP BY 1 ORDER BY 1`,
          args: [tenantId, ...chunk],
        });
        rows.push(...result.rows.map(toRollupRow));
      }
      return rows;
    },
  };
}
