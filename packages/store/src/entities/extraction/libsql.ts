// Extractions (one structured-data result per request) and the learned strategies (docs/specs.md,
// "the strategy cache": per URL glob, schema and selector, with an optional replay recipe) that
// make the next extraction of the same page shape cheap.
import type { InValue, Row } from '@libsql/client';
import type { SqlClient } from '../../libsql/native-client';
import {
  newExtractionRecord,
  newExtractionStrategyRecord,
  type Extraction,
  type ExtractionRepository,
  type ExtractionStrategy,
  type ExtractionStrategyRepository,
  type NewExtractionStrategy,
} from './record';
import { clampLimit, nowIso } from '../../shared';
import { EXTRACTION_STRATEGY_KEY } from './libsql-schema';
import { buildSet, firstRow, iso, json, num, str, strOrNull, toJson } from '../../libsql/sql';

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
  urlPattern: str(row, 'url_pattern'),
  cssSelector: strOrNull(row, 'css_selector'),
  outputSchema: json<Record<string, unknown>>(row, 'output_schema'),
  schemaHash: str(row, 'schema_hash'),
  queryTemplate: str(row, 'query_template'),
  replay: json<Record<string, unknown> | null>(row, 'replay'),
  successCount: num(row, 'success_count'),
  failureCount: num(row, 'failure_count'),
  lastUsed: str(row, 'last_used'),
  createdAt: str(row, 'created_at'),
  updatedAt: str(row, 'updated_at'),
});

const at = (now: string | undefined): string => (now === undefined ? nowIso() : iso(now));

async function upsertStrategy(
  client: SqlClient,
  tenantId: string,
  input: NewExtractionStrategy,
  now: string | undefined,
): Promise<ExtractionStrategy> {
  const strategy = newExtractionStrategyRecord(tenantId, input, at(now));
  // A relearned strategy replaces what it extracts and how; the counters and the id keep
  // its history. An upsert that says nothing about replay keeps the recipe learned so far.
  const result = await client.execute({
    sql: `INSERT INTO extraction_strategies (id, tenant_id, domain, url_pattern, css_selector,
            output_schema, schema_hash, query_template, replay, success_count, failure_count,
            last_used, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (${EXTRACTION_STRATEGY_KEY})
          DO UPDATE SET domain = excluded.domain, output_schema = excluded.output_schema,
            query_template = excluded.query_template,
            replay = CASE WHEN ? THEN excluded.replay ELSE replay END,
            last_used = excluded.last_used, updated_at = excluded.updated_at
          RETURNING *`,
    args: [
      strategy.id,
      strategy.tenantId,
      strategy.domain,
      strategy.urlPattern,
      strategy.cssSelector,
      toJson(strategy.outputSchema),
      strategy.schemaHash,
      strategy.queryTemplate,
      toJson(strategy.replay),
      strategy.successCount,
      strategy.failureCount,
      strategy.lastUsed,
      strategy.createdAt,
      strategy.updatedAt,
      input.replay === undefined ? 0 : 1,
    ],
  });
  return toStrategy(firstRow(result.rows));
}

// The recipe list of a strategy's replay ({ recipes: [{ id, replays, used, … }] }) changes in
// one UPDATE each, so SQLite's single writer makes every change atomic: no read-modify-write in
// between for a concurrent count or retire to be lost in. json() around a subquery's result
// keeps it JSON (a subquery drops the JSON subtype, and json_set would store a string).
const RECIPES = `json_each(extraction_strategies.replay, '$.recipes')`;
const HAS_RECIPE = `EXISTS (SELECT 1 FROM ${RECIPES} AS r WHERE json_extract(r.value, '$.id') = :recipeId)`;
const RECIPE_AT = `(SELECT r.key FROM ${RECIPES} AS r
  WHERE json_extract(r.value, '$.id') = :recipeId LIMIT 1)`;
const IS_LIST = `json_type(extraction_strategies.replay, '$.recipes') = 'array'`;

// The new entry first among equals, then the others newest-used first, the `keep` first kept.
const ADD_RECIPE = `UPDATE extraction_strategies
  SET replay = json_set(CASE WHEN ${IS_LIST} THEN replay ELSE '{}' END, '$.recipes', json((
        SELECT json_group_array(json(k.value)) FROM (
          SELECT value FROM (
            SELECT :entry AS value, :now AS used, 0 AS rank
            UNION ALL
            SELECT r.value, json_extract(r.value, '$.used'), 1
            FROM json_each(CASE WHEN ${IS_LIST} THEN extraction_strategies.replay
                                ELSE '{"recipes":[]}' END, '$.recipes') AS r
            WHERE json_extract(r.value, '$.id') IS NOT :recipeId
          ) ORDER BY used DESC, rank LIMIT :keep
        ) AS k))),
      updated_at = :now
  WHERE tenant_id = :tenantId AND id = :id RETURNING *`;

const COUNT_RECIPE_REPLAY = `UPDATE extraction_strategies
  SET replay = json_set(replay,
        '$.recipes[' || ${RECIPE_AT} || '].replays',
        COALESCE(json_extract(replay, '$.recipes[' || ${RECIPE_AT} || '].replays'), 0) + 1,
        '$.recipes[' || ${RECIPE_AT} || '].used', :now),
      updated_at = :now
  WHERE tenant_id = :tenantId AND id = :id AND ${HAS_RECIPE} RETURNING *`;

const RETIRE_RECIPE = `UPDATE extraction_strategies
  SET replay = json_set(replay, '$.recipes', json((
        SELECT json_group_array(json(r.value)) FROM ${RECIPES} AS r
        WHERE json_extract(r.value, '$.id') IS NOT :recipeId))),
      updated_at = :now
  WHERE tenant_id = :tenantId AND id = :id AND ${HAS_RECIPE} RETURNING *`;

export function libsqlExtractionStrategies(client: SqlClient): ExtractionStrategyRepository {
  return {
    upsert: (tenantId, input, now) => upsertStrategy(client, tenantId, input, now),
    async get(tenantId, id) {
      const result = await client.execute({
        sql: 'SELECT * FROM extraction_strategies WHERE tenant_id = ? AND id = ?',
        args: [tenantId, id],
      });
      const row = result.rows[0];
      return row ? toStrategy(row) : null;
    },
    async listByDomain(tenantId, domain, options = {}) {
      const result = await client.execute({
        sql: `SELECT * FROM extraction_strategies WHERE tenant_id = ? AND domain = ?
              ORDER BY last_used DESC, id DESC LIMIT ?`,
        args: [tenantId, domain, clampLimit(options.limit, 50)],
      });
      return result.rows.map(toStrategy);
    },
    async recordResult(tenantId, id, success, now) {
      const column = success ? 'success_count' : 'failure_count';
      const when = at(now);
      const result = await client.execute({
        sql: `UPDATE extraction_strategies
              SET ${column} = ${column} + 1, last_used = ?, updated_at = ?
              WHERE tenant_id = ? AND id = ? RETURNING *`,
        args: [when, when, tenantId, id],
      });
      const row = result.rows[0];
      return row ? toStrategy(row) : null;
    },
    async setReplay(tenantId, id, replay, now) {
      const result = await client.execute({
        sql: `UPDATE extraction_strategies SET replay = ?, updated_at = ?
              WHERE tenant_id = ? AND id = ? RETURNING *`,
        args: [toJson(replay), at(now), tenantId, id],
      });
      const row = result.rows[0];
      return row ? toStrategy(row) : null;
    },
    async addRecipe(tenantId, id, entry, keep, now) {
      const when = at(now);
      const result = await client.execute({
        sql: ADD_RECIPE,
        args: {
          entry: toJson({ ...entry, replays: 0, used: when }),
          recipeId: entry.id,
          keep: Math.max(1, Math.floor(keep)),
          now: when,
          tenantId,
          id,
        },
      });
      const row = result.rows[0];
      return row ? toStrategy(row) : null;
    },
    async countRecipeReplay(tenantId, id, recipeId, now) {
      const result = await client.execute({
        sql: COUNT_RECIPE_REPLAY,
        args: { recipeId, now: at(now), tenantId, id },
      });
      const row = result.rows[0];
      return row ? toStrategy(row) : null;
    },
    async retireRecipe(tenantId, id, recipeId, now) {
      const result = await client.execute({
        sql: RETIRE_RECIPE,
        args: { recipeId, now: at(now), tenantId, id },
      });
      const row = result.rows[0];
      return row ? toStrategy(row) : null;
    },
    async setUrlPattern(tenantId, id, change, now) {
      // OR IGNORE: a pattern another strategy of the same key already has is no move (no row).
      const result = await client.execute({
        sql: `UPDATE OR IGNORE extraction_strategies SET url_pattern = ?, updated_at = ?
              WHERE tenant_id = ? AND id = ? AND url_pattern = ? RETURNING *`,
        args: [change.to, at(now), tenantId, id, change.from],
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
