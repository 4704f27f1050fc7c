// Skills: what the agent learned on a domain (a failed state and the action that got past it),
// kept while they keep working.
import { newId } from '../../shared';

export interface Skill {
  id: string;
  tenantId: string;
  domain: string;
  goal: string;
  failedState: { action: string; elementDescription: string; errorType: string };
  successfulAction: { action: string; elementDescription: string; strategy: string };
  successCount: number;
  failureCount: number;
  lastUsed: string;
  createdAt: string;
}

/** Sums over a tenant's stored skills, as kept (expired ones not yet swept included). */
export interface SkillTotals {
  skills: number;
  successCount: number;
  failureCount: number;
}

export type NewSkill = Pick<Skill, 'domain' | 'goal' | 'failedState' | 'successfulAction'>;

export interface SkillRepository {
  /**
   * Inserts a skill (successCount 1, failureCount 0), or (same domain + goal + failed action +
   * successful action) bumps its successCount and lastUsed. Throws LimitExceededError when a
   * new skill would exceed the per-tenant maximum; an existing skill is still bumped.
   */
  upsert(tenantId: string, input: NewSkill, now?: string): Promise<Skill>;
  get(tenantId: string, id: string): Promise<Skill | null>;
  /**
   * Skills for a domain (optionally a goal substring), not expired (lastUsed within the TTL),
   * with success rate >= minSuccessRate (default 0.5), most recently used first.
   */
  find(
    tenantId: string,
    input: { domain: string; goal?: string; limit?: number; minSuccessRate?: number; now?: string },
  ): Promise<Skill[]>;
  recordOutcome(
    tenantId: string,
    id: string,
    success: boolean,
    now?: string,
  ): Promise<Skill | null>;
  count(tenantId: string): Promise<number>;
  /** The tenant's stored skills and the sums of their counters (the skill KPIs); zeros if none. */
  totals(tenantId: string): Promise<SkillTotals>;
  /** Deletes skills whose lastUsed is older than the TTL (Mongo also has a TTL index). */
  deleteExpired(now?: string): Promise<number>;
}

export const SKILL_TTL_MS = 90 * 24 * 60 * 60 * 1000;

export const MAX_SKILLS_PER_TENANT = 10_000;

export const MIN_SKILL_SUCCESS_RATE = 0.5;

/** A new skill has just worked once, so it starts at one success. */
export function newSkillRecord(tenantId: string, input: NewSkill, now: string): Skill {
  return {
    id: newId(),
    tenantId,
    domain: input.domain,
    goal: input.goal,
    failedState: input.failedState,
    successfulAction: input.successfulAction,
    successCount: 1,
    failureCount: 0,
    lastUsed: now,
    createdAt: now,
  };
}
