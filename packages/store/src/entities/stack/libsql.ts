// Stacks: several documents extracted into one table. A row is (stack, document); a cell is
// written by path with json_set, guarded by the stack belonging to the user.
import type { Row } from '@libsql/client';
import { assertFieldPath, sqlitePath } from '../../field-paths';
import { newStackRecord, type Stack, type StackRepository, type StackRow } from './record';
import { clampLimit, nowIso } from '../../shared';
import type { SqlClient } from '../../libsql/native-client';
import { firstRow, json, num, str, strOrNull, toJson } from '../../libsql/sql';

const toStack = (row: Row): Stack => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  userId: str(row, 'user_id'),
  name: str(row, 'name'),
  documentIds: json<string[]>(row, 'document_ids'),
  columns: json<Stack['columns']>(row, 'columns'),
  status: str(row, 'status') as Stack['status'],
  instructions: strOrNull(row, 'instructions'),
  costMicroUsd: num(row, 'cost_micro_usd'),
  tokens: num(row, 'tokens'),
  error: strOrNull(row, 'error'),
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
});

const toRow = (row: Row): StackRow => ({
  tenantId: str(row, 'tenant_id'),
  stackId: str(row, 'stack_id'),
  documentId: str(row, 'document_id'),
  cells: json<Record<string, unknown>>(row, 'cells'),
  confidences: json<Record<string, number>>(row, 'confidences'),
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
});

/** The stack is the tenant's and the user's: every row write is conditional on it. */
const OWNED_STACK = `EXISTS (SELECT 1 FROM stacks s WHERE s.tenant_id = ? AND s.id = ? AND s.user_id = ?)`;

export function libsqlStacks(client: SqlClient): StackRepository {
  async function updateStack(
    tenantId: string,
    id: string,
    userId: string,
    set: string,
    args: (string | number | null)[],
    guard = '',
  ): Promise<Stack | null> {
    const result = await client.execute({
      sql: `UPDATE stacks SET ${set}, updated_at = ?
            WHERE tenant_id = ? AND id = ? AND user_id = ?${guard} RETURNING *`,
      args: [...args, nowIso(), tenantId, id, userId],
    });
    const row = result.rows[0];
    return row ? toStack(row) : null;
  }

  return {
    async create(tenantId, input) {
      const stack = newStackRecord(tenantId, input, nowIso());
      const result = await client.execute({
        sql: `INSERT INTO stacks (id, tenant_id, user_id, name, document_ids, columns, status,
                instructions, cost_micro_usd, tokens, error, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        args: [
          stack.id,
          stack.tenantId,
          stack.userId,
          stack.name,
          toJson(stack.documentIds),
          toJson(stack.columns),
          stack.status,
          stack.instructions,
          stack.costMicroUsd,
          stack.tokens,
          stack.error,
          stack.createdAt,
          stack.updatedAt,
        ],
      });
      return toStack(firstRow(result.rows));
    },

    async get(tenantId, id, options = {}) {
      const result = await client.execute({
        sql: `SELECT * FROM stacks WHERE tenant_id = ? AND id = ?${options.userId === undefined ? '' : ' AND user_id = ?'}`,
        args: options.userId === undefined ? [tenantId, id] : [tenantId, id, options.userId],
      });
      const row = result.rows[0];
      return row ? toStack(row) : null;
    },

    async list(tenantId, options = {}) {
      const byUser = options.userId !== undefined;
      const result = await client.execute({
        sql: `SELECT * FROM stacks WHERE tenant_id = ?${byUser ? ' AND user_id = ?' : ''}
              ORDER BY created_at DESC, id DESC LIMIT ?`,
        args: [tenantId, ...(byUser ? [options.userId ?? ''] : []), clampLimit(options.limit, 20)],
      });
      return result.rows.map(toStack);
    },

    setColumns: (tenantId, id, input) =>
      updateStack(tenantId, id, input.userId, 'columns = ?', [toJson(input.columns)]),

    async putRow(tenantId, stackId, input) {
      const now = nowIso();
      const result = await client.execute({
        sql: `INSERT INTO stack_rows (tenant_id, stack_id, document_id, position, cells,
                confidences, created_at, updated_at)
              SELECT ?, ?, ?,
                (SELECT COALESCE(MAX(position), 0) + 1 FROM stack_rows
                 WHERE tenant_id = ? AND stack_id = ?),
                json(?), json(?), ?, ?
              WHERE ${OWNED_STACK}
              ON CONFLICT (tenant_id, stack_id, document_id) DO UPDATE
                SET cells = excluded.cells, confidences = excluded.confidences,
                    updated_at = excluded.updated_at
              RETURNING *`,
        args: [
          tenantId,
          stackId,
          input.documentId,
          tenantId,
          stackId,
          toJson(input.cells),
          toJson(input.confidences),
          now,
          now,
          tenantId,
          stackId,
          input.userId,
        ],
      });
      const row = result.rows[0];
      return row ? toRow(row) : null;
    },

    async setCell(tenantId, stackId, input) {
      assertFieldPath([input.column]);
      const path = sqlitePath([input.column]);
      const result = await client.execute({
        sql: `UPDATE stack_rows
              SET cells = json_set(cells, ?, json(?)),
                  confidences = json_set(confidences, ?, json(?)),
                  updated_at = ?
              WHERE tenant_id = ? AND stack_id = ? AND document_id = ? AND ${OWNED_STACK}
              RETURNING *`,
        args: [
          path,
          toJson(input.value),
          path,
          // As JSON text: a bare REAL would be written with 15 significant digits.
          toJson(input.confidence),
          nowIso(),
          tenantId,
          stackId,
          input.documentId,
          tenantId,
          stackId,
          input.userId,
        ],
      });
      const row = result.rows[0];
      return row ? toRow(row) : null;
    },

    async listRows(tenantId, stackId) {
      const result = await client.execute({
        sql: 'SELECT * FROM stack_rows WHERE tenant_id = ? AND stack_id = ? ORDER BY position',
        args: [tenantId, stackId],
      });
      return result.rows.map(toRow);
    },

    complete: (tenantId, id, input) =>
      updateStack(
        tenantId,
        id,
        input.userId,
        "status = 'completed', error = NULL",
        [],
        ' AND EXISTS (SELECT 1 FROM stack_rows r WHERE r.tenant_id = stacks.tenant_id AND r.stack_id = stacks.id)',
      ),

    setStatus: (tenantId, id, input) =>
      input.status === undefined
        ? updateStack(tenantId, id, input.userId, 'error = ?', [input.error])
        : updateStack(tenantId, id, input.userId, 'status = ?, error = ?', [
            input.status,
            input.error,
          ]),

    async addUsage(tenantId, id, usage) {
      await client.execute({
        sql: `UPDATE stacks SET cost_micro_usd = cost_micro_usd + ?, tokens = tokens + ?
              WHERE tenant_id = ? AND id = ?`,
        args: [Math.round(usage.costMicroUsd), Math.round(usage.tokens), tenantId, id],
      });
    },
  };
}
