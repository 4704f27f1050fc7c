// Task actions: the step history of a task. `insertMany` is one write transaction of
// multi-row INSERTs, because the agent flushes a chain's actions together and the
// benchmark holds us to >= 5,000 inserts/s batched.
import type { InStatement, InValue, Row } from '@libsql/client';
import type { SqlClient } from './native-client';
import type { ActionStatus, ExpectedOutcome, VerificationResult } from '@tandem/contracts';
import type { TaskAction, TaskActionRepository } from '../port';
import { newTaskActionRecord } from '../record-defaults';
import { nowIso } from '../shared';
import { buildSet, json, num, placeholders, str, toJson } from './sql';

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
  expectedOutcome: json<ExpectedOutcome | null>(row, 'expected_outcome'),
  beforeState: json<TaskAction['beforeState']>(row, 'before_state'),
  verification: json<VerificationResult | null>(row, 'verification'),
  status: str(row, 'status') as ActionStatus,
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
