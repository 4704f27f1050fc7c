// Routines, one row per version. A new version's number is computed inside its INSERT
// (MAX + 1 over the routine's rows), and the unique key rejects a concurrent writer that took
// the same number: it retries once with the number that is now free.
import type { InValue, Row } from '@libsql/client';
import type { SqlClient } from '../../libsql/native-client';
import {
  buildSet,
  firstRow,
  isUniqueViolation,
  json,
  num,
  str,
  strOrNull,
  toJson,
  type ColumnMap,
} from '../../libsql/sql';
import { clampLimit, decodeCursor, encodeCursor, nowIso } from '../../shared';
import {
  newRoutineRecord,
  nextVersionOf,
  type NewRoutine,
  type Routine,
  type RoutinePatch,
  type RoutineRepository,
} from './record';

const toRoutine = (row: Row): Routine => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  site: str(row, 'site'),
  goalTemplate: str(row, 'goal_template'),
  name: str(row, 'name'),
  parameters: json<Routine['parameters']>(row, 'parameters'),
  steps: json<Routine['steps']>(row, 'steps'),
  version: num(row, 'version'),
  sourceTaskId: strOrNull(row, 'source_task_id'),
  enabled: num(row, 'enabled') !== 0,
  runs: num(row, 'runs'),
  heals: num(row, 'heals'),
  tokensSaved: num(row, 'tokens_saved'),
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
});

const PATCH_COLUMNS: ColumnMap<RoutinePatch> = {
  name: { column: 'name' },
  enabled: { column: 'enabled', encode: (enabled) => (enabled ? 1 : 0) },
};

const KEY_WHERE = 'tenant_id = ? AND site = ? AND goal_template = ?';

export function libsqlRoutines(client: SqlClient): RoutineRepository {
  const get = async (tenantId: string, id: string): Promise<Routine | null> => {
    const result = await client.execute({
      sql: 'SELECT * FROM routines WHERE tenant_id = ? AND id = ?',
      args: [tenantId, id],
    });
    const row = result.rows[0];
    return row ? toRoutine(row) : null;
  };

  const insertNext = async (tenantId: string, input: NewRoutine): Promise<Routine> => {
    // The version is a placeholder here: the INSERT computes the real one.
    const routine = newRoutineRecord(tenantId, input, 0, nowIso());
    const insert = () =>
      client.execute({
        sql: `INSERT INTO routines (id, tenant_id, site, goal_template, name, parameters, steps,
                version, source_task_id, enabled, runs, heals, tokens_saved, created_at, updated_at)
              SELECT ?, ?, ?, ?, ?, ?, ?,
                COALESCE((SELECT MAX(version) FROM routines WHERE ${KEY_WHERE}), 0) + 1,
                ?, ?, ?, ?, ?, ?, ?
              RETURNING *`,
        args: [
          routine.id,
          routine.tenantId,
          routine.site,
          routine.goalTemplate,
          routine.name,
          toJson(routine.parameters),
          toJson(routine.steps),
          tenantId,
          routine.site,
          routine.goalTemplate,
          routine.sourceTaskId,
          routine.enabled ? 1 : 0,
          routine.runs,
          routine.heals,
          routine.tokensSaved,
          routine.createdAt,
          routine.updatedAt,
        ],
      });
    try {
      return toRoutine(firstRow((await insert()).rows));
    } catch (error) {
      // Another connection took the number between our read and write (the id is ours, so a
      // unique violation is the version key).
      if (!isUniqueViolation(error)) throw error;
      return toRoutine(firstRow((await insert()).rows));
    }
  };

  return {
    create: insertNext,
    get,

    async findLatest(tenantId, input, options = {}) {
      const enabled = options.includeDisabled === true ? '' : 'AND enabled = 1';
      const result = await client.execute({
        sql: `SELECT * FROM routines WHERE ${KEY_WHERE} ${enabled}
              ORDER BY version DESC LIMIT 1`,
        args: [tenantId, input.site, input.goalTemplate],
      });
      const row = result.rows[0];
      return row ? toRoutine(row) : null;
    },

    async versions(tenantId, id) {
      const one = await get(tenantId, id);
      if (!one) return [];
      const result = await client.execute({
        sql: `SELECT * FROM routines WHERE ${KEY_WHERE} ORDER BY version DESC`,
        args: [tenantId, one.site, one.goalTemplate],
      });
      return result.rows.map(toRoutine);
    },

    async list(tenantId, options = {}) {
      const limit = clampLimit(options.limit, 50);
      const where = ['tenant_id = ?'];
      const args: InValue[] = [tenantId];
      if (options.site !== undefined) {
        where.push('site = ?');
        args.push(options.site);
      }
      const after = options.cursor ? decodeCursor(options.cursor) : null;
      if (after && after.length === 2) {
        where.push('(created_at < ? OR (created_at = ? AND id < ?))');
        args.push(String(after[0]), String(after[0]), String(after[1]));
      }
      const result = await client.execute({
        sql: `SELECT * FROM routines WHERE ${where.join(' AND ')}
              ORDER BY created_at DESC, id DESC LIMIT ?`,
        args: [...args, limit + 1],
      });
      const items = result.rows.slice(0, limit).map(toRoutine);
      const last = items[items.length - 1];
      return {
        items,
        nextCursor:
          result.rows.length > limit && last ? encodeCursor([last.createdAt, last.id]) : null,
      };
    },

    async update(tenantId, id, patch) {
      const { assignments, args } = buildSet(patch, PATCH_COLUMNS);
      const result = await client.execute({
        sql: `UPDATE routines SET ${[...assignments, 'updated_at = ?'].join(', ')}
              WHERE tenant_id = ? AND id = ? RETURNING *`,
        args: [...args, nowIso(), tenantId, id],
      });
      const row = result.rows[0];
      return row ? toRoutine(row) : null;
    },

    async addCounts(tenantId, id, counts) {
      const result = await client.execute({
        sql: `UPDATE routines SET runs = runs + ?, heals = heals + ?,
                tokens_saved = tokens_saved + ?, updated_at = ?
              WHERE tenant_id = ? AND id = ? RETURNING *`,
        args: [
          counts.runs ?? 0,
          counts.heals ?? 0,
          counts.tokensSaved ?? 0,
          nowIso(),
          tenantId,
          id,
        ],
      });
      const row = result.rows[0];
      return row ? toRoutine(row) : null;
    },

    async addVersion(tenantId, id, input) {
      const base = await get(tenantId, id);
      if (!base) return null;
      return insertNext(tenantId, nextVersionOf(base, input));
    },

    async delete(tenantId, id) {
      const result = await client.execute({
        sql: 'DELETE FROM routines WHERE tenant_id = ? AND id = ?',
        args: [tenantId, id],
      });
      return result.rowsAffected > 0;
    },
  };
}
