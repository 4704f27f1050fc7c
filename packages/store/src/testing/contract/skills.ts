// Skills: dedupe, success-rate filter, TTL, per-tenant cap.
//
// Times: stored skills are kept near the real clock, because MongoDB's TTL index deletes
// expired documents on its own schedule; a test that stores an already-expired skill only
// asserts what holds whether or not that sweep ran first.
import { describe, expect, it } from 'vitest';
import { LimitExceededError, MAX_SKILLS_PER_TENANT, SKILL_TTL_MS, type NewSkill } from '../../port';
import { isoAt, newTenant, uniq, useStore, type MakeStore } from './harness';

const DAY_MS = 24 * 60 * 60 * 1000;

function skillInput(
  overrides: { domain?: string; goal?: string; failed?: string; succeeded?: string } = {},
): NewSkill {
  return {
    domain: overrides.domain ?? 'shop.test',
    goal: overrides.goal ?? 'add the item to the cart',
    failedState: {
      action: overrides.failed ?? 'click(12)',
      elementDescription: 'Add button',
      errorType: 'ELEMENT_NOT_FOUND',
    },
    successfulAction: {
      action: overrides.succeeded ?? 'click(15)',
      elementDescription: 'Add to cart',
      strategy: 'ALTERNATIVE_SELECTOR',
    },
  };
}

export function skillsContract(makeStore: MakeStore): void {
  describe('skills', () => {
    const store = useStore(makeStore);

    it('inserts a skill with one success', async () => {
      const tenantId = await newTenant(store());
      const now = isoAt(Date.now());
      const input = skillInput();
      const skill = await store().skills.upsert(tenantId, input, now);
      expect(skill).toMatchObject({
        ...input,
        tenantId,
        successCount: 1,
        failureCount: 0,
        lastUsed: now,
        createdAt: now,
      });
      expect(await store().skills.get(tenantId, skill.id)).toEqual(skill);
      expect(await store().skills.get(tenantId, uniq('missing'))).toBeNull();
    });

    it('dedupes on domain, goal, failed action and successful action', async () => {
      const tenantId = await newTenant(store());
      const t0 = Date.now();
      const first = await store().skills.upsert(tenantId, skillInput(), isoAt(t0));
      const again = await store().skills.upsert(tenantId, skillInput(), isoAt(t0 + 1000));
      expect(again).toMatchObject({
        id: first.id,
        successCount: 2,
        lastUsed: isoAt(t0 + 1000),
        createdAt: first.createdAt,
      });
      const variants = [
        skillInput({ succeeded: 'click(16)' }),
        skillInput({ failed: 'click(13)' }),
        skillInput({ goal: 'checkout' }),
        skillInput({ domain: 'other.test' }),
      ];
      const ids = new Set([first.id]);
      for (const variant of variants) ids.add((await store().skills.upsert(tenantId, variant)).id);
      expect(ids.size).toBe(5);
      expect(await store().skills.count(tenantId)).toBe(5);
    });

    it('finds by domain and goal, newest use first, above the success rate', async () => {
      const tenantId = await newTenant(store());
      const t0 = Date.now() - 10_000;
      const older = await store().skills.upsert(
        tenantId,
        skillInput({ succeeded: 'a' }),
        isoAt(t0),
      );
      const newer = await store().skills.upsert(
        tenantId,
        skillInput({ succeeded: 'b' }),
        isoAt(t0 + 1000),
      );
      const otherGoal = await store().skills.upsert(
        tenantId,
        skillInput({ succeeded: 'c', goal: 'log in to the account' }),
        isoAt(t0 + 2000),
      );
      await store().skills.upsert(tenantId, skillInput({ domain: 'elsewhere.test' }), isoAt(t0));

      const ids = async (input: { goal?: string; limit?: number; minSuccessRate?: number }) =>
        (await store().skills.find(tenantId, { domain: 'shop.test', ...input })).map((s) => s.id);

      expect(await ids({})).toEqual([otherGoal.id, newer.id, older.id]);
      expect(await ids({ goal: 'the cart' })).toEqual([newer.id, older.id]);
      expect(await ids({ limit: 1 })).toEqual([otherGoal.id]);

      // 1 success, 2 failures: 0.33 is below the default 0.5 but above 0.3.
      await store().skills.recordOutcome(tenantId, older.id, false, isoAt(t0 + 3000));
      await store().skills.recordOutcome(tenantId, older.id, false, isoAt(t0 + 3000));
      expect(await ids({ goal: 'the cart' })).toEqual([newer.id]);
      expect(await ids({ goal: 'the cart', minSuccessRate: 0.3 })).toEqual([older.id, newer.id]);
      expect(await ids({ minSuccessRate: 1 })).toEqual([otherGoal.id, newer.id]);
      expect(await store().skills.find(tenantId, { domain: 'nowhere.test' })).toEqual([]);
    });

    it('leaves expired skills out of find', async () => {
      const tenantId = await newTenant(store());
      const now = Date.now();
      const skill = await store().skills.upsert(tenantId, skillInput(), isoAt(now));
      const find = (at: number) =>
        store().skills.find(tenantId, { domain: 'shop.test', now: isoAt(at) });
      expect((await find(now + SKILL_TTL_MS - DAY_MS)).map((s) => s.id)).toEqual([skill.id]);
      expect(await find(now + SKILL_TTL_MS + DAY_MS)).toEqual([]);
    });

    it('records outcomes', async () => {
      const tenantId = await newTenant(store());
      const t0 = Date.now();
      const skill = await store().skills.upsert(tenantId, skillInput(), isoAt(t0));
      const failed = await store().skills.recordOutcome(tenantId, skill.id, false, isoAt(t0 + 5));
      expect(failed).toMatchObject({ successCount: 1, failureCount: 1, lastUsed: isoAt(t0 + 5) });
      const succeeded = await store().skills.recordOutcome(tenantId, skill.id, true, isoAt(t0 + 9));
      expect(succeeded).toMatchObject({
        successCount: 2,
        failureCount: 1,
        lastUsed: isoAt(t0 + 9),
      });
      expect(await store().skills.get(tenantId, skill.id)).toEqual(succeeded);
      expect(await store().skills.recordOutcome(tenantId, uniq('missing'), true)).toBeNull();
    });

    it("sums a tenant's skills and their counters, and no other tenant's", async () => {
      const tenantId = await newTenant(store());
      const other = await newTenant(store());
      expect(await store().skills.totals(tenantId)).toEqual({
        skills: 0,
        successCount: 0,
        failureCount: 0,
      });
      const t0 = Date.now();
      const first = await store().skills.upsert(tenantId, skillInput(), isoAt(t0));
      await store().skills.upsert(tenantId, skillInput(), isoAt(t0 + 1)); // successCount 2
      const second = await store().skills.upsert(tenantId, skillInput({ succeeded: 'click(20)' }));
      await store().skills.recordOutcome(tenantId, first.id, true, isoAt(t0 + 2));
      await store().skills.recordOutcome(tenantId, first.id, false, isoAt(t0 + 3));
      await store().skills.recordOutcome(tenantId, second.id, false, isoAt(t0 + 4));
      await store().skills.recordOutcome(tenantId, second.id, false, isoAt(t0 + 5));
      const foreign = await store().skills.upsert(other, skillInput());
      await store().skills.recordOutcome(other, foreign.id, false);
      // first: 3 successes, 1 failure; second: 1 success, 2 failures.
      expect(await store().skills.totals(tenantId)).toEqual({
        skills: 2,
        successCount: 4,
        failureCount: 3,
      });
      expect(await store().skills.totals(other)).toEqual({
        skills: 1,
        successCount: 1,
        failureCount: 1,
      });
    });

    it('deletes expired skills and keeps fresh ones', async () => {
      const tenantId = await newTenant(store());
      const stale = await store().skills.upsert(
        tenantId,
        skillInput({ succeeded: 'old' }),
        isoAt(Date.now() - SKILL_TTL_MS - DAY_MS),
      );
      const fresh = await store().skills.upsert(tenantId, skillInput({ succeeded: 'new' }));
      const staleBefore = await store().skills.get(tenantId, stale.id);
      const deleted = await store().skills.deleteExpired();
      if (staleBefore !== null) expect(deleted).toBeGreaterThanOrEqual(1);
      expect(await store().skills.get(tenantId, stale.id)).toBeNull();
      expect(await store().skills.get(tenantId, fresh.id)).toEqual(fresh);
      expect(await store().skills.count(tenantId)).toBe(1);
    });

    it(`caps a tenant at ${MAX_SKILLS_PER_TENANT} skills`, async () => {
      const tenantId = await newTenant(store());
      // Just inside the TTL, so the cleanup at the end can remove exactly these with a
      // sweep that no fresh skill of any other test is old enough to be caught by.
      const nearlyExpired = isoAt(Date.now() - SKILL_TTL_MS + 60 * 60 * 1000);
      // Small concurrent chunks: a networked store overlaps the round trips, while an embedded
      // one (serialised underneath) is not slowed down by long queues of waiting calls.
      const chunk = 50;
      for (let start = 0; start < MAX_SKILLS_PER_TENANT; start += chunk) {
        await Promise.all(
          Array.from({ length: Math.min(chunk, MAX_SKILLS_PER_TENANT - start) }, (_, i) =>
            store().skills.upsert(
              tenantId,
              skillInput({ succeeded: `s${start + i}` }),
              nearlyExpired,
            ),
          ),
        );
      }
      expect(await store().skills.count(tenantId)).toBe(MAX_SKILLS_PER_TENANT);

      await expect(
        store().skills.upsert(tenantId, skillInput({ succeeded: 'one too many' }), nearlyExpired),
      ).rejects.toBeInstanceOf(LimitExceededError);
      // An existing skill still learns at the cap.
      const bumped = await store().skills.upsert(
        tenantId,
        skillInput({ succeeded: 's0' }),
        nearlyExpired,
      );
      expect(bumped.successCount).toBe(2);
      expect(await store().skills.count(tenantId)).toBe(MAX_SKILLS_PER_TENANT);
      // The cap is per tenant.
      const other = await newTenant(store());
      await expect(store().skills.upsert(other, skillInput())).resolves.toMatchObject({
        tenantId: other,
      });

      await store().skills.deleteExpired(isoAt(Date.now() + 2 * 60 * 60 * 1000));
      expect(await store().skills.count(tenantId)).toBe(0);
    }, 180_000);
  });
}
