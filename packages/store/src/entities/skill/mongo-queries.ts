// Query documents of the skills repository.
import { MIN_SKILL_SUCCESS_RATE, SKILL_TTL_MS, type NewSkill } from './record';
import type { Filter, FindSpec, Pipeline, UpdateSpec } from '../../mongo/queries/spec';

/** Escapes a user string for use inside a RegExp (skills' goal substring search). */
export const escapeRegExp = (value: string): string => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const skillFilter = (tenantId: string, id: string): Filter => ({ tenantId, id });

/** A known skill (same domain, goal, failed and successful action) worked again. */
export function skillBumpUpdate(tenantId: string, input: NewSkill, when: Date): UpdateSpec {
  return {
    filter: {
      tenantId,
      domain: input.domain,
      goal: input.goal,
      'failedState.action': input.failedState.action,
      'successfulAction.action': input.successfulAction.action,
    },
    update: { $inc: { successCount: 1 }, $set: { lastUsed: when } },
  };
}

/**
 * Unexpired skills of a domain (and goal substring, case-insensitive) whose success rate
 * success / (success + failure) is at least the minimum (0/0 counts as 0), newest use first.
 */
export function skillFindQuery(
  tenantId: string,
  input: { domain: string; goal?: string; minSuccessRate?: number },
  now: Date,
  limit: number,
): FindSpec {
  const total = { $add: ['$successCount', '$failureCount'] };
  const filter: Filter = {
    tenantId,
    domain: input.domain,
    lastUsed: { $gte: new Date(now.getTime() - SKILL_TTL_MS) },
    $expr: {
      $gte: [
        { $cond: [{ $eq: [total, 0] }, 0, { $divide: ['$successCount', total] }] },
        input.minSuccessRate ?? MIN_SKILL_SUCCESS_RATE,
      ],
    },
  };
  if (input.goal !== undefined && input.goal !== '') {
    filter.goal = { $regex: escapeRegExp(input.goal), $options: 'i' };
  }
  return { filter, sort: { lastUsed: -1, id: -1 }, limit };
}

export function skillOutcomeUpdate(
  tenantId: string,
  id: string,
  success: boolean,
  when: Date,
): UpdateSpec {
  return {
    filter: skillFilter(tenantId, id),
    update: {
      $inc: success ? { successCount: 1 } : { failureCount: 1 },
      $set: { lastUsed: when },
    },
  };
}

export function skillTotalsPipeline(tenantId: string): Pipeline {
  return [
    { $match: { tenantId } },
    {
      $group: {
        _id: null,
        skills: { $sum: 1 },
        successCount: { $sum: '$successCount' },
        failureCount: { $sum: '$failureCount' },
      },
    },
  ];
}

/** Skills past the TTL, across tenants (a maintenance sweep; the TTL index does the same). */
export const expiredSkillsFilter = (now: Date): Filter => ({
  lastUsed: { $lt: new Date(now.getTime() - SKILL_TTL_MS) },
});
