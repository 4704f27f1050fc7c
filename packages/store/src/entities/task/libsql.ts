// Tasks. `update` is a single conditional UPDATE so `ifVersion` is a real compare-and-set:
// of two concurrent requests for the same task, exactly one advances it.
//
// Task actions: the step history of a task. `insertMany` is one write transaction of
// multi-row INSERTs, because the agent flushes a chain's actions together and the
// benchmark holds us to >= 5,000 inserts/s batched.
import type { InStatement, InValue, Row } from '@libsql/client';
import { emptyTaskMetrics } from '@tandem/contracts';
import type { SqlClient } from '../../libsql/native-client';
import { TASK_PATCH_FIELDS } from './fields';
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
} from '../../libsql/sql';
import { VersionConflictError } from '../../port';
import { clampLimit, decodeCursor, encodeCursor, nowIso } from '../../shared';
import {
  LIVE_TASK_STATUSES,
  newTaskActionRecord,
  newTaskRecord,
  type Task,
  type TaskAction,
  type TaskActionRepository,
  type TaskPatch,
  type TaskRepository,
} from './record';

const toTask = (row: Row): Task => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  userId: str(row, 'user_id'),
  sessionId: strOrNull(row, 'session_id'),
  url: str(row, 'url'),
  query: str(row, 'query'),
  status: str(row, 'status') as Task['status'],
  complexity: strOrNull(row, 'complexity') as Task['complexity'],
  plan: json<Task['plan']>(row, 'plan'),
  hierarchicalPlan: json<Task['hierarchicalPlan']>(row, 'hierarchical_plan'),
  currentStepIndex: num(row, 'current_step_index'),
  corrections: json<Task['corrections'] | null>(row, 'corrections') ?? [],
  metrics: json<Task['metrics'] | null>(row, 'metrics') ?? emptyTaskMetrics(),
  lastChain: json<Task['lastChain']>(row, 'last_chain'),
  webSearchResult: json<unknown>(row, 'web_search_result'),
  result: strOrNull(row, 'result'),
  collectLimit: numOrNull(row, 'collect_limit'),
  consecutiveFailures: num(row, 'consecutive_failures'),
  consecutiveSuccessWithoutTaskComplete: num(row, 'consecutive_success_without_task_complete'),
  version: num(row, 'version'),
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
});

const PATCH_COLUMNS = Object.fromEntries(
  Object.entries(TASK_PATCH_FIELDS).map(([key, { column, json }]) => [
    key,
    json ? { column, encode: toJson } : { column },
  ]),
) as ColumnMap<TaskPatch>;

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
        `status IN (${placeholders(LIVE_TASK_STATUSES.length)})`,
      ];
      const args: InValue[] = [tenantId, input.sessionId, ...LIVE_TASK_STATUSES];
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
        `status IN (${placeholders(LIVE_TASK_STATUSES.length)})`,
        'updated_at < ?',
      ];
      const args: InValue[] = [tenantId, ...LIVE_TASK_STATUSES, iso(input.olderThan)];
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

const COLUMNS = [
  'id',
  'tenant_id',
  'task_id',
  'step_index',
  'thought',
  'action',
  'expected_outcome',
  'before_state',
  'verification',
  'status',
  'metrics',
  'created_at',
] as const;

/** Rows per INSERT statement: 12 parameters each keeps us far below SQLite's variable limit. */
const ROWS_PER_STATEMENT = 100;

const ROW_PLACEHOLDER = `(${placeholders(COLUMNS.length)})`;

const toTaskAction = (row: Row): TaskAction => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  taskId: str(row, 'task_id'),
  stepIndex: num(row, 'step_index'),
  thought: str(row, 'thought'),
  action: str(row, 'action'),
  expectedOutcome: json<TaskAction['expectedOutcome']>(row, 'expected_outcome'),
  beforeState: json<TaskAction['beforeState']>(row, 'before_state'),
  verification: json<TaskAction['verification']>(row, 'verification'),
  status: str(row, 'status') as TaskAction['status'],
  metrics: json<TaskAction['metrics']>(row, 'metrics'),
  createdAt: str(row, 'created_at'),
});

const toArgs = (a: TaskAction): InValue[] => [
  a.id,
  a.tenantId,
  a.taskId,
  a.stepIndex,
  a.thought,
  a.action,
  toJson(a.expectedOutcome),
  toJson(a.beforeState),
  toJson(a.verification),
  a.status,
  toJson(a.metrics),
  a.createdAt,
];

function insertStatements(records: TaskAction[]): InStatement[] {
  const statements: InStatement[] = [];
  for (let start = 0; start < records.length; start += ROWS_PER_STATEMENT) {
    const chunk = records.slice(start, start + ROWS_PER_STATEMENT);
    statements.push({
      sql: `INSERT INTO task_actions (${COLUMNS.join(', ')}) VALUES ${chunk
        .map(() => ROW_PLACEHOLDER)
        .join(', ')}`,
      args: chunk.flatMap(toArgs),
    });
  }
  return statements;
}

/** Task ids per SELECT … IN (…): far below SQLite's variable limit, few round trips. */
const IDS_PER_STATEMENT = 500;

// rowid is the last tie-breaker: actions of one step written in one batch keep their order.
const ORDER = 'step_index, created_at, rowid';
const ORDER_DESC = 'step_index DESC, created_at DESC, rowid DESC';

export function libsqlTaskActions(client: SqlClient): TaskActionRepository {
  return {
    async insert(tenantId, input) {
      const record = newTaskActionRecord(tenantId, input, nowIso());
      // One row is one statement: atomic on its own, no transaction round trips needed.
      const [statement] = insertStatements([record]);
      if (statement) await client.execute(statement);
      return record;
    },
    async insertMany(tenantId, inputs) {
      if (inputs.length === 0) return [];
      const now = nowIso();
      const records = inputs.map((input) => newTaskActionRecord(tenantId, input, now));
      await client.batch(insertStatements(records), 'write');
      return records;
    },
    async get(tenantId, id) {
      const result = await client.execute({
        sql: 'SELECT * FROM task_actions WHERE tenant_id = ? AND id = ?',
        args: [tenantId, id],
      });
      const row = result.rows[0];
      return row ? toTaskAction(row) : null;
    },
    async listByTask(tenantId, taskId) {
      const result = await client.execute({
        sql: `SELECT * FROM task_actions WHERE tenant_id = ? AND task_id = ? ORDER BY ${ORDER}`,
        args: [tenantId, taskId],
      });
      return result.rows.map(toTaskAction);
    },
    async getLast(tenantId, taskId) {
      const result = await client.execute({
        sql: `SELECT * FROM task_actions WHERE tenant_id = ? AND task_id = ?
              ORDER BY ${ORDER_DESC} LIMIT 1`,
        args: [tenantId, taskId],
      });
      const row = result.rows[0];
      return row ? toTaskAction(row) : null;
    },
    async listByTasks(tenantId, taskIds) {
      const ids = [...new Set(taskIds)].sort();
      const out: TaskAction[] = [];
      // Chunks of sorted ids, each ordered by task id: concatenated, they stay in order.
      for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
        const chunk = ids.slice(start, start + IDS_PER_STATEMENT);
        const result = await client.execute({
          sql: `SELECT * FROM task_actions
                WHERE tenant_id = ? AND task_id IN (${placeholders(chunk.length)})
                ORDER BY task_id, ${ORDER}`,
          args: [tenantId, ...chunk],
        });
        out.push(...result.rows.map(toTaskAction));
      }
      return out;
    },
    async update(tenantId, id, patch) {
      const { assignments, args } = buildSet(patch, {
        verification: { column: 'verification', encode: toJson },
        status: { column: 'status' },
        metrics: { column: 'metrics', encode: toJson },
        expectedOutcome: { column: 'expected_outcome', encode: toJson },
      });
      const result = await client.execute(
        assignments.length === 0
          ? {
              sql: 'SELECT * FROM task_actions WHERE tenant_id = ? AND id = ?',
              args: [tenantId, id],
            }
          : {
              sql: `UPDATE task_actions SET ${assignments.join(', ')}
                    WHERE tenant_id = ? AND id = ? RETURNING *`,
              args: [...args, tenantId, id],
            },
      );
      const row = result.rows[0];
      return row ? toTaskAction(row) : null;
    },
  };
}
