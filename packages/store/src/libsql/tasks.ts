// Tasks. `update` is a single conditional UPDATE so `ifVersion` is a real compare-and-set:
// of two concurrent requests for the same task, exactly one advances it.
import type { InValue, Row } from '@libsql/client';
import type { SqlClient } from './native-client';
import {
  emptyTaskMetrics,
  type Complexity,
  type CorrectionRecord,
  type HierarchicalPlan,
  type Plan,
  type StoredChain,
  type TaskMetrics,
  type TaskStatus,
} from '@tandem/contracts';
import { VersionConflictError, type Task, type TaskPatch, type TaskRepository } from '../port';
import { newTaskRecord } from '../record-defaults';
import { clampLimit, decodeCursor, encodeCursor, nowIso } from '../shared';
import {
  buildSet,
  firstRow,
  iso,
  json,
  num,
  numOrNull,
  placeholders,
  str,
  strOrNull,
  toJson,
  type ColumnMap,
} from './sql';

/**
 * Statuses a task can still advance from (findActive / expireStale look at these): a task
 * paused on a question is live too, and its answer continues it.
 */
const LIVE_STATUSES: TaskStatus[] = ['active', 'executing', 'needs_user_input'];

const toTask = (row: Row): Task => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  userId: str(row, 'user_id'),
  sessionId: strOrNull(row, 'session_id'),
  url: str(row, 'url'),
  query: str(row, 'query'),
  status: str(row, 'status') as TaskStatus,
  complexity: strOrNull(row, 'complexity') as Complexity | null,
  plan: json<Plan | null>(row, 'plan'),
  hierarchicalPlan: json<HierarchicalPlan | null>(row, 'hierarchical_plan'),
  currentStepIndex: num(row, 'current_step_index'),
  corrections: json<CorrectionRecord[] | null>(row, 'corrections') ?? [],
  metrics: json<TaskMetrics | null>(row, 'metrics') ?? emptyTaskMetrics(),
  lastChain: json<StoredChain | null>(row, 'last_chain'),
  webSearchResult: json<unknown>(row, 'web_search_result'),
  result: strOrNull(row, 'result'),
  collectLimit: numOrNull(row, 'collect_limit'),
  consecutiveFailures: num(row, 'consecutive_failures'),
  consecutiveSuccessWithoutTaskComplete: num(row, 'consecutive_success_without_task_complete'),
  version: num(row, 'version'),
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
});

const PATCH_COLUMNS: ColumnMap<TaskPatch> = {
  sessionId: { column: 'session_id' },
  url: { column: 'url' },
  query: { column: 'query' },
  status: { column: 'status' },
  complexity: { column: 'complexity' },
  plan: { column: 'plan', encode: toJson },
  hierarchicalPlan: { column: 'hierarchical_plan', encode: toJson },
  currentStepIndex: { column: 'current_step_index' },
  corrections: { column: 'corrections', encode: toJson },
  metrics: { column: 'metrics', encode: toJson },
  lastChain: { column: 'last_chain', encode: toJson },
  webSearchResult: { column: 'web_search_result', encode: toJson },
  result: { column: 'result' },
  collectLimit: { column: 'collect_limit' },
  consecutiveFailures: { column: 'consecutive_failures' },
  consecutiveSuccessWithoutTaskComplete: { column: 'consecutive_success_without_task_complete' },
};

export function libsqlTasks(client: SqlClient): TaskRepository {
  const get = async (tenantId: string, id: string): Promise<Task | null> => {
    const result = await client.execute({
      sql: 'SELECT * FROM tasks WHERE tenant_id = ? AND id = ?',
      args: [tenantId, id],
    });
    const row = result.rows[0];
    return row ? toTask(row) : null;
  };

  return {
    async create(tenantId, input) {
      const task = newTaskRecord(tenantId, input, nowIso());
      const result = await client.execute({
        sql: `INSERT INTO tasks (id, tenant_id, user_id, session_id, url, query, status, complexity,
                plan, hierarchical_plan, current_step_index, corrections, metrics, last_chain,
                web_search_result, result, collect_limit, consecutive_failures,
                consecutive_success_without_task_complete, version, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              RETURNING *`,
        args: [
          task.id,
          task.tenantId,
          task.userId,
          task.sessionId,
          task.url,
          task.query,
          task.status,
          task.complexity,
          toJson(task.plan),
          toJson(task.hierarchicalPlan),
          task.currentStepIndex,
          toJson(task.corrections),
          toJson(task.metrics),
          toJson(task.lastChain),
          toJson(task.webSearchResult),
          task.result,
          task.collectLimit,
          task.consecutiveFailures,
          task.consecutiveSuccessWithoutTaskComplete,
          task.version,
          task.createdAt,
          task.updatedAt,
        ],
      });
      return toTask(firstRow(result.rows));
    },

    get,

    async update(tenantId, id, patch, options = {}) {
      const { assignments, args } = buildSet(patch, PATCH_COLUMNS);
      const where = ['tenant_id = ?', 'id = ?'];
      const whereArgs: InValue[] = [tenantId, id];
      if (options.ifVersion !== undefined) {
        where.push('version = ?');
        whereArgs.push(options.ifVersion);
      }
      const result = await client.execute({
        sql: `UPDATE tasks SET ${[...assignments, 'version = version + 1', 'updated_at = ?'].join(', ')}
              WHERE ${where.join(' AND ')} RETURNING *`,
        args: [...args, nowIso(), ...whereArgs],
      });
      const row = result.rows[0];
      if (row) return toTask(row);
      if (options.ifVersion !== undefined && (await get(tenantId, id)) !== null) {
        throw new VersionConflictError(`task ${id} is not at version ${options.ifVersion}`);
      }
      return null;
    },

    async list(tenantId, options = {}) {
      const limit = clampLimit(options.limit, 50);
      const where = ['tenant_id = ?'];
      const args: InValue[] = [tenantId];
      if (options.status !== undefined) {
        if (options.status.length === 0) return { items: [], nextCursor: null };
        where.push(`status IN (${placeholders(options.status.length)})`);
        args.push(...options.status);
      }
      if (options.userId !== undefined) {
        where.push('user_id = ?');
        args.push(options.userId);
      }
      if (options.sessionId !== undefined) {
        where.push('session_id = ?');
        args.push(options.sessionId);
      }
      if (options.createdFrom !== undefined) {
        where.push('created_at >= ?');
        args.push(iso(options.createdFrom));
      }
      if (options.createdTo !== undefined) {
        where.push('created_at < ?');
        args.push(iso(options.createdTo));
      }
      const after = options.cursor ? decodeCursor(options.cursor) : null;
      if (after && after.length === 2) {
        where.push('(created_at < ? OR (created_at = ? AND id < ?))');
        args.push(String(after[0]), String(after[0]), String(after[1]));
      }
      const result = await client.execute({
        sql: `SELECT * FROM tasks WHERE ${where.join(' AND ')}
              ORDER BY created_at DESC, id DESC LIMIT ?`,
        args: [...args, limit + 1],
      });
      const items = result.rows.slice(0, limit).map(toTask);
      const last = items[items.length - 1];
      return {
        items,
        nextCursor:
          result.rows.length > limit && last ? encodeCursor([last.createdAt, last.id]) : null,
      };
    },

    async findActive(tenantId, input) {
      const where = [
        'tenant_id = ?',
        'session_id = ?',
        `status IN (${placeholders(LIVE_STATUSES.length)})`,
      ];
      const args: InValue[] = [tenantId, input.sessionId, ...LIVE_STATUSES];
      if (input.url !== undefined) {
        where.push('url = ?');
        args.push(input.url);
      }
      const result = await client.execute({
        sql: `SELECT * FROM tasks WHERE ${where.join(' AND ')}
              ORDER BY created_at DESC, id DESC LIMIT 1`,
        args,
      });
      const row = result.rows[0];
      return row ? toTask(row) : null;
    },

    async expireStale(tenantId, input) {
      const where = [
        'tenant_id = ?',
        `status IN (${placeholders(LIVE_STATUSES.length)})`,
        'updated_at < ?',
      ];
      const args: InValue[] = [tenantId, ...LIVE_STATUSES, iso(input.olderThan)];
      if (input.sessionId !== undefined) {
        where.push('session_id = ?');
        args.push(input.sessionId);
      }
      // Bumps version too, so a request that read the task before the sweep loses its ifVersion.
      const result = await client.execute({
        sql: `UPDATE tasks SET status = 'interrupted', version = version + 1, updated_at = ?
              WHERE ${where.join(' AND ')}`,
        args: [nowIso(), ...args],
      });
      return result.rowsAffected;
    },
  };
}
