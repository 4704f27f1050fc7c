// Skills: learned "when X failed on this domain, Y worked" records. Deduplicated on
// (tenant, domain, goal, failed action, successful action), expired by lastUsed, capped per
// tenant so one tenant cannot grow the table without bound.
import type { InValue, Row } from '@libsql/client';
import type { SqlClient } from '../../libsql/native-client';
import { LimitExceededError } from '../../port';
import {
  MAX_SKILLS_PER_TENANT,
  MIN_SKILL_SUCCESS_RATE,
  newSkillRecord,
  SKILL_TTL_MS,
  type Skill,
  type SkillRepository,
} from './record';
import { clampLimit, nowIso } from '../../shared';
import { iso, isoPlusMs, json, num, str, toJson } from '../../libsql/sql';

const toSkill = (row: Row): Skill => ({
  id: str(row, 'id'),
  tenantId: str(row, 'tenant_id'),
  domain: str(row, 'domain'),
  goal: str(row, 'goal'),
  failedState: json<Skill['failedState']>(row, 'failed_state'),
  successfulAction: json<Skill['successfulAction']>(row, 'successful_action'),
  successCount: num(row, 'success_count'),
  failureCount: num(row, 'failure_count'),
  lastUsed: str(row, 'last_used'),
  createdAt: str(row, 'created_at'),
});

const DEDUPE_WHERE =
  'tenant_id = ? AND domain = ? AND goal = ? AND failed_action_key = ? AND successful_action_key = ?';

export function libsqlSkills(client: SqlClient): SkillRepository {
  return {
    async upsert(tenantId, input, now) {
      const at = now === undefined ? nowIso() : iso(now);
      const skill = newSkillRecord(tenantId, input, at);
      const key: InValue[] = [
        tenantId,
        input.domain,
        input.goal,
        input.failedState.action,
        input.successfulAction.action,
      ];
      // One statement: the count check, the insert and the dedupe bump cannot interleave with
      // another writer.
      const inserted = await client.execute({
        sql: `INSERT INTO skills (id, tenant_id, domain, goal, failed_state, successful_action,
                failed_action_key, successful_action_key, success_count, failure_count,
                last_used, created_at)
              SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
              WHERE COALESCE((SELECT n FROM skill_counts WHERE tenant_id = ?), 0) < ?
              ON CONFLICT (tenant_id, domain, goal, failed_action_key, successful_action_key)
              DO UPDATE SET success_count = success_count + 1, last_used = excluded.last_used
              RETURNING *`,
        args: [
          skill.id,
          skill.tenantId,
          skill.domain,
          skill.goal,
          toJson(skill.failedState),
          toJson(skill.successfulAction),
          skill.failedState.action,
          skill.successfulAction.action,
          skill.successCount,
          skill.failureCount,
          skill.lastUsed,
          skill.createdAt,
          tenantId,
          MAX_SKILLS_PER_TENANT,
        ],
      });
      const row = inserted.rows[0];
      if (row) return toSkill(row);
      // At the cap nothing was selected, so the dedupe bump did not run either: an existing
      // skill is still allowed to learn, only a new one is refused.
      const bumped = await client.execute({
        sql: `UPDATE skills SET success_count = success_count + 1, last_used = ?
              WHERE ${DEDUPE_WHERE} RETURNING *`,
        args: [at, ...key],
      });
      const existing = bumped.rows[0];
      if (existing) return toSkill(existing);
      throw new LimitExceededError(
        `Tenant ${tenantId} already has ${MAX_SKILLS_PER_TENANT} skills`,
      );
    },

    async get(tenantId, id) {
      const result = await client.execute({
        sql: 'SELECT * FROM skills WHERE tenant_id = ? AND id = ?',
        args: [tenantId, id],
      });
      const row = result.rows[0];
      return row ? toSkill(row) : null;
    },

    async find(tenantId, input) {
      const now = input.now === undefined ? nowIso() : iso(input.now);
      const where = [
        'tenant_id = ?',
        'domain = ?',
        'last_used >= ?',
        // success + failure is at least 1 for every stored skill; the CASE only guards 0/0.
        `(CASE WHEN success_count + failure_count = 0 THEN 0.0
               ELSE CAST(success_count AS REAL) / (success_count + failure_count) END) >= ?`,
      ];
      const args: InValue[] = [
        tenantId,
        input.domain,
        isoPlusMs(now, -SKILL_TTL_MS),
        input.minSuccessRate ?? MIN_SKILL_SUCCESS_RATE,
      ];
      if (input.goal !== undefined && input.goal !== '') {
        where.push('instr(lower(goal), lower(?)) > 0');
        args.push(input.goal);
      }
      const result = await client.execute({
        sql: `SELECT * FROM skills WHERE ${where.join(' AND ')}
              ORDER BY last_used DESC, id DESC LIMIT ?`,
        args: [...args, clampLimit(input.limit, 10)],
      });
      return result.rows.map(toSkill);
    },

    async recordOutcome(tenantId, id, success, now) {
      const column = success ? 'success_count' : 'failure_count';
      const result = await client.execute({
        sql: `UPDATE skills SET ${column} = ${column} + 1, last_used = ?
              WHERE tenant_id = ? AND id = ? RETURNING *`,
        args: [now === undefined ? nowIso() : iso(now), tenantId, id],
      });
      const row = result.rows[0];
      return row ? toSkill(row) : null;
    },

    async count(tenantId) {
      const result = await client.execute({
        sql: 'SELECT COUNT(*) AS n FROM skills WHERE tenant_id = ?',
        args: [tenantId],
      });
      const row = result.rows[0];
      return row ? num(row, 'n') : 0;
    },

    async totals(tenantId) {
      const result = await client.execute({
        sql: `SELECT COUNT(*) AS skills, COALESCE(SUM(success_count), 0) AS successes,
                COALESCE(SUM(failure_count), 0) AS failures
              FROM skills WHERE tenant_id = ?`,
        args: [tenantId],
      });
      const row = result.rows[0];
      return row
        ? {
            skills: num(row, 'skills'),
            successCount: num(row, 'successes'),
            failureCount: num(row, 'failures'),
          }
        : { skills: 0, successCount: 0, failureCount: 0 };
    },

    async deleteExpired(now) {
      // A maintenance sweep across tenants (the port gives it no tenant): age is all it uses.
      const cutoff = isoPlusMs(now === undefined ? nowIso() : iso(now), -SKILL_TTL_MS);
      const result = await client.execute({
        sql: 'DELETE FROM skills WHERE last_used < ?',
        args: [cutoff],
      });
      return result.rowsAffected;
    },
  };
}
