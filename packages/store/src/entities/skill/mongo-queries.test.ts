// The skills repository's query documents, evaluated by mingo.
import { describe, expect, it } from 'vitest';
import { SKILL_TTL_MS, type NewSkill } from './record';
import type { SkillDoc } from './mongo-schema';
import { MingoCollection } from '../../mongo/queries/mingo-collection';
import {
  expiredSkillsFilter,
  skillBumpUpdate,
  skillFindQuery,
  skillOutcomeUpdate,
  skillTotalsPipeline,
} from './mongo-queries';

const NOW = new Date('2025-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

function skill(over: Partial<SkillDoc> & { id: string }): SkillDoc {
  return {
    tenantId: 't1',
    domain: 'emr.example',
    goal: 'Add a new patient',
    failedState: { action: 'click(1)', elementDescription: 'Save', errorType: 'NOT_FOUND' },
    successfulAction: { action: 'click(2)', elementDescription: 'Save', strategy: 'RETRY' },
    successCount: 3,
    failureCount: 1,
    lastUsed: daysAgo(1),
    createdAt: daysAgo(10),
    ...over,
  };
}

describe('skills', () => {
  it('finds unexpired skills of the domain at or above the success rate, goal substring ignoring case and regex syntax', () => {
    const skills = new MingoCollection([
      skill({ id: 'good' }),
      skill({ id: 'half', successCount: 1, failureCount: 1, lastUsed: daysAgo(2) }),
      skill({ id: 'bad', successCount: 1, failureCount: 3 }),
      skill({ id: 'never', successCount: 0, failureCount: 0 }),
      skill({ id: 'expired', lastUsed: new Date(NOW.getTime() - SKILL_TTL_MS - 1) }),
      skill({ id: 'other-site', domain: 'jobs.example' }),
      skill({ id: 'other-tenant', tenantId: 't2' }),
      skill({ id: 'regexy', goal: 'Pay (a+b) invoice', lastUsed: daysAgo(3) }),
    ]);
    const ids = (input: Parameters<typeof skillFindQuery>[1], limit = 10) =>
      skills.find(skillFindQuery('t1', input, NOW, limit)).map((s) => s.id);
    expect(ids({ domain: 'emr.example' })).toEqual(['good', 'half', 'regexy']);
    expect(ids({ domain: 'emr.example', goal: 'NEW PATIENT' })).toEqual(['good', 'half']);
    expect(ids({ domain: 'emr.example', goal: '(a+b)' })).toEqual(['regexy']);
    expect(ids({ domain: 'emr.example', minSuccessRate: 0.7 })).toEqual(['good', 'regexy']);
    expect(ids({ domain: 'emr.example' }, 1)).toEqual(['good']);
  });

  it('bumps the skill with the same domain, goal and actions; records outcomes; sums totals', () => {
    const skills = new MingoCollection([skill({ id: 's1' }), skill({ id: 's2', goal: 'Other' })]);
    const input: NewSkill = {
      domain: 'emr.example',
      goal: 'Add a new patient',
      failedState: { action: 'click(1)', elementDescription: 'x', errorType: 'NOT_FOUND' },
      successfulAction: { action: 'click(2)', elementDescription: 'x', strategy: 'RETRY' },
    };
    expect(skills.findOneAndUpdate(skillBumpUpdate('t1', input, NOW))).toMatchObject({
      id: 's1',
      successCount: 4,
      lastUsed: NOW,
    });
    const changed = {
      ...input,
      successfulAction: { ...input.successfulAction, action: 'click(3)' },
    };
    expect(skills.findOneAndUpdate(skillBumpUpdate('t1', changed, NOW))).toBeNull();
    expect(skills.findOneAndUpdate(skillOutcomeUpdate('t1', 's2', false, NOW))).toMatchObject({
      failureCount: 2,
      successCount: 3,
    });
    expect(skills.aggregate(skillTotalsPipeline('t1'))).toEqual([
      { _id: null, skills: 2, successCount: 7, failureCount: 3 },
    ]);
    expect(skills.aggregate(skillTotalsPipeline('t9'))).toEqual([]);
  });

  it('the sweep selects skills unused for longer than the TTL, across tenants', () => {
    const skills = new MingoCollection([
      skill({ id: 'old', lastUsed: new Date(NOW.getTime() - SKILL_TTL_MS - 1) }),
      skill({ id: 'old2', tenantId: 't2', lastUsed: new Date(NOW.getTime() - SKILL_TTL_MS - 1) }),
      skill({ id: 'edge', lastUsed: new Date(NOW.getTime() - SKILL_TTL_MS) }),
    ]);
    expect(skills.deleteMany(expiredSkillsFilter(NOW))).toBe(2);
    expect(skills.docs.map((s) => s.id)).toEqual(['edge']);
  });
});
