// Skills: learned "when X failed on this domain, Y worked" records. Deduplicated on
// (tenant, domain, goal, failed action, successful action), expired 90 days after lastUsed (a
// TTL index, and find() checks lastUsed itself because the TTL monitor only runs about once a
// minute), capped per tenant so one tenant cannot grow the collection without bound.
import {
  LimitExceededError,
  MAX_SKILLS_PER_TENANT,
  MIN_SKILL_SUCCESS_RATE,
  SKILL_TTL_MS,
  type Skill,
  type SkillRepository,
} from '../port';
import { newSkillRecord } from '../record-defaults';
import { clampLimit } from '../shared';
import type { SkillDoc } from './documents';
import type { MongoModels } from './schemas';
import { escapeRegExp, iso, isMongoDuplicateKey, nowDate, toDate } from './util';

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
      const dedupe = {
        tenantId,
        domain: input.domain,
        goal: input.goal,
        'failedState.action': input.failedState.action,
        'successfulAction.action': input.successfulAction.action,
      };
      // A known skill just worked again. Allowed at the cap: only new skills are refused.
      const bump = () =>
        skills
          .findOneAndUpdate(
            dedupe,
            { $inc: { successCount: 1 }, $set: { lastUsed: when } },
            { returnDocument: 'after' },
          )
          .lean()
          .exec();
      const existing = await bump();
      if (existing) return toSkill(existing);

      // The cap is checked before the insert, not atomically with it: two inserts racing at
      // 9,999 can both land. A soft cap is enough to stop unbounded growth.
      const count = await skills.countDocuments({ tenantId }).exec();
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
      const doc = await skills.findOne({ tenantId, id }).lean().exec();
      return doc ? toSkill(doc) : null;
    },

    async find(tenantId, input) {
      const now = at(input.now);
      const filter: Record<string, unknown> = {
        tenantId,
        domain: input.domain,
        lastUsed: { $gte: new Date(now.getTime() - SKILL_TTL_MS) },
        // success / (success + failure) >= minSuccessRate; 0/0 counts as 0.
        $expr: {
          $gte: [
            {
              $cond: [
                { $eq: [{ $add: ['$successCount', '$failureCount'] }, 0] },
                0,
                { $divide: ['$successCount', { $add: ['$successCount', '$failureCount'] }] },
              ],
            },
            input.minSuccessRate ?? MIN_SKILL_SUCCESS_RATE,
          ],
        },
      };
      if (input.goal !== undefined && input.goal !== '') {
        filter.goal = { $regex: escapeRegExp(input.goal), $options: 'i' };
      }
      const docs = await skills
        .find(filter)
        .sort({ lastUsed: -1, id: -1 })
        .limit(clampLimit(input.limit, 10))
        .lean()
        .exec();
      return docs.map(toSkill);
    },

    async recordOutcome(tenantId, id, success, now) {
      const doc = await skills
        .findOneAndUpdate(
          { tenantId, id },
          {
            $inc: success ? { successCount: 1 } : { failureCount: 1 },
            $set: { lastUsed: at(now) },
          },
          { returnDocument: 'after' },
        )
        .lean()
        .exec();
      return doc ? toSkill(doc) : null;
    },

    async count(tenantId) {
      return skills.countDocuments({ tenantId }).exec();
    },

    async totals(tenantId) {
      const [sums] = await skills
        .aggregate<{ skills: number; successCount: number; failureCount: number }>([
          { $match: { tenantId } },
          {
            $group: {
              _id: null,
              skills: { $sum: 1 },
              successCount: { $sum: '$successCount' },
              failureCount: { $sum: '$failureCount' },
            },
          },
        ])
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
      const cutoff = new Date(at(now).getTime() - SKILL_TTL_MS);
      const result = await skills.deleteMany({ lastUsed: { $lt: cutoff } }).exec();
      return result.deletedCount;
    },
  };
}
