// Skills: learned "when X failed on this domain, Y worked" records. Deduplicated on
// (tenant, domain, goal, failed action, successful action), expired 90 days after lastUsed (a
// TTL index, and find() checks lastUsed itself because the TTL monitor only runs about once a
// minute), capped per tenant so one tenant cannot grow the collection without bound.
import { LimitExceededError } from '../../port';
import { MAX_SKILLS_PER_TENANT, newSkillRecord, type Skill, type SkillRepository } from './record';
import { clampLimit } from '../../shared';
import type { SkillDoc } from './mongo-schema';
import {
  expiredSkillsFilter,
  skillBumpUpdate,
  skillFilter,
  skillFindQuery,
  skillOutcomeUpdate,
  skillTotalsPipeline,
} from './mongo-queries';
import { tenantScope } from '../../mongo/queries/spec';
import type { MongoModels } from '../../mongo/schemas';
import { iso, isMongoDuplicateKey, nowDate, toDate } from '../../mongo/util';

const toSkill = (doc: SkillDoc): Skill => ({
  id: doc.id,
  tenantId: doc.tenantId,
  domain: doc.domain,
  goal: doc.goal,
  failedState: {
    action: doc.failedState.action,
    elementDescription: doc.failedState.elementDescription,
    errorType: doc.failedState.errorType,
  },
  successfulAction: {
    action: doc.successfulAction.action,
    elementDescription: doc.successfulAction.elementDescription,
    strategy: doc.successfulAction.strategy,
  },
  successCount: doc.successCount,
  failureCount: doc.failureCount,
  lastUsed: iso(doc.lastUsed),
  createdAt: iso(doc.createdAt),
});

const at = (now: string | undefined): Date => (now === undefined ? nowDate() : toDate(now));

export function mongoSkills({ skills }: MongoModels): SkillRepository {
  return {
    async upsert(tenantId, input, now) {
      const when = at(now);
      // A known skill just worked again. Allowed at the cap: only new skills are refused.
      const { filter: dedupe, update: bumped } = skillBumpUpdate(tenantId, input, when);
      const bump = () =>
        skills.findOneAndUpdate(dedupe, bumped, { returnDocument: 'after' }).lean().exec();
      const existing = await bump();
      if (existing) return toSkill(existing);

      // The cap is checked before the insert, not atomically with it: two inserts racing at
      // 9,999 can both land. A soft cap is enough to stop unbounded growth.
      const count = await skills.countDocuments(tenantScope(tenantId)).exec();
      if (count >= MAX_SKILLS_PER_TENANT) {
        throw new LimitExceededError(
          `Tenant ${tenantId} already has ${MAX_SKILLS_PER_TENANT} skills`,
        );
      }
      const skill = newSkillRecord(tenantId, input, iso(when));
      const doc: SkillDoc = {
        ...skill,
        // The schema declares three sub-fields each: copying just those keeps stray keys of
        // the caller's objects out of the document, as toSkill does when reading.
        failedState: {
          action: skill.failedState.action,
          elementDescription: skill.failedState.elementDescription,
          errorType: skill.failedState.errorType,
        },
        successfulAction: {
          action: skill.successfulAction.action,
          elementDescription: skill.successfulAction.elementDescription,
          strategy: skill.successfulAction.strategy,
        },
        lastUsed: toDate(skill.lastUsed),
        createdAt: toDate(skill.createdAt),
      };
      try {
        await skills.create(doc);
        return toSkill(doc);
      } catch (error) {
        if (!isMongoDuplicateKey(error)) throw error;
        // Another request inserted the same skill first: count this success on it.
        const winner = await bump();
        if (winner) return toSkill(winner);
        throw error;
      }
    },

    async get(tenantId, id) {
      const doc = await skills.findOne(skillFilter(tenantId, id)).lean().exec();
      return doc ? toSkill(doc) : null;
    },

    async find(tenantId, input) {
      const query = skillFindQuery(tenantId, input, at(input.now), clampLimit(input.limit, 10));
      const docs = await skills
        .find(query.filter)
        .sort(query.sort)
        .limit(query.limit ?? 10)
        .lean()
        .exec();
      return docs.map(toSkill);
    },

    async recordOutcome(tenantId, id, success, now) {
      const { filter, update } = skillOutcomeUpdate(tenantId, id, success, at(now));
      const doc = await skills
        .findOneAndUpdate(filter, update, { returnDocument: 'after' })
        .lean()
        .exec();
      return doc ? toSkill(doc) : null;
    },

    async count(tenantId) {
      return skills.countDocuments(tenantScope(tenantId)).exec();
    },

    async totals(tenantId) {
      const [sums] = await skills
        .aggregate<{ skills: number; successCount: number; failureCount: number }>(
          skillTotalsPipeline(tenantId),
        )
        .exec();
      return {
        skills: sums?.skills ?? 0,
        successCount: sums?.successCount ?? 0,
        failureCount: sums?.failureCount ?? 0,
      };
    },

    async deleteExpired(now) {
      // A maintenance sweep across tenants (the port gives it no tenant): age is all it uses.
      // The TTL index does the same on its own schedule.
      const result = await skills.deleteMany(expiredSkillsFilter(at(now))).exec();
      return result.deletedCount;
    },
  };
}
