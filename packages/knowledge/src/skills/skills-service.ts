// The skills library (docs/specs.md, "episodic memory" and "skills library limits"): when a
// correction leads to a verified success, the lesson — goal, the action that failed, the action
// that worked — is kept for the tenant and the site, and later tasks with a similar goal on the
// same site read it before choosing an action ("In the past, clicking “Patients” did not work;
// clicking “New/Search” did"). The store enforces the spec's limits: 90 days since last use,
// 10,000 skills per tenant, and only skills that worked at least half the time are returned.
// Retrieval is lexical (word overlap of goals) until the knowledge issue adds embeddings.
import { hostOf } from '@tandem/contracts';
import { LimitExceededError, type Skill, type Store } from '@tandem/store';

export interface SkillHint {
  skillId: string;
  /** The line the action prompt shows. */
  text: string;
  /** Goal similarity × success rate × recency, in 0..1. */
  score: number;
}

export interface LearnInput {
  tenantId: string;
  /** The page the lesson was learned on; skills are scoped to its host. */
  url: string;
  goal: string;
  failed: { action: string; elementDescription: string; errorType: string };
  succeeded: { action: string; elementDescription: string; strategy: string };
}

export interface SkillsOptions {
  now?: () => Date;
  /** Days after which a skill's weight halves (time-decay ranking). */
  halfLifeDays?: number;
  /** Hints one prompt shows at most. */
  maxHints?: number;
  /** Least goal similarity (word overlap) for a skill to count as relevant. */
  minSimilarity?: number;
}

const STOPWORDS = new Set(
  'a an and as at by for from in into of on or the to with named called new please my our this that'.split(
    ' ',
  ),
);

/** The goal's content words: lower case, without stopwords and one-letter tokens. */
export function goalWords(goal: string): Set<string> {
  return new Set(
    goal
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length > 1 && !STOPWORDS.has(word)),
  );
}

/** Jaccard overlap of two goals' content words. */
export function goalSimilarity(a: string, b: string): number {
  const left = goalWords(a);
  const right = goalWords(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  return shared / (left.size + right.size - shared);
}

/** What the model reads: names, never element ids (ids change between pages and tasks). */
export function skillHintText(skill: Skill): string {
  const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
  const failed = lower(skill.failedState.elementDescription || skill.failedState.action);
  const worked = lower(skill.successfulAction.elementDescription || skill.successfulAction.action);
  return `For a goal like "${skill.goal}", ${failed} did not work (${skill.failedState.errorType}); ${worked} worked instead.`;
}

export class SkillsService {
  private readonly now: () => Date;
  private readonly halfLifeDays: number;
  private readonly maxHints: number;
  private readonly minSimilarity: number;

  constructor(
    private readonly store: Pick<Store, 'skills'>,
    options: SkillsOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.halfLifeDays = options.halfLifeDays ?? 30;
    this.maxHints = options.maxHints ?? 3;
    this.minSimilarity = options.minSimilarity ?? 0.3;
  }

  /** Hints for a goal on a page, best first; none for another site or an unrelated goal. */
  async hintsFor(input: { tenantId: string; url: string; goal: string }): Promise<SkillHint[]> {
    const domain = hostOf(input.url);
    if (!domain) return [];
    const now = this.now();
    const skills = await this.store.skills.find(input.tenantId, {
      domain,
      limit: 200,
      now: now.toISOString(),
    });
    return skills
      .map((skill) => ({ skill, similarity: goalSimilarity(input.goal, skill.goal) }))
      .filter(({ similarity }) => similarity >= this.minSimilarity)
      .map(({ skill, similarity }) => ({
        skillId: skill.id,
        text: skillHintText(skill),
        score: similarity * successRate(skill) * this.decay(skill, now),
      }))
      .sort((a, b) => b.score - a.score)
      .slice(0, this.maxHints);
  }

  /**
   * Keeps a lesson. Null when the page has no host or the tenant is at its cap (the task goes
   * on: a lesson is worth keeping, never worth failing a step for).
   */
  async learn(input: LearnInput): Promise<Skill | null> {
    const domain = hostOf(input.url);
    if (!domain || input.failed.action === input.succeeded.action) return null;
    try {
      return await this.store.skills.upsert(
        input.tenantId,
        {
          domain,
          goal: input.goal.trim().slice(0, 500),
          failedState: input.failed,
          successfulAction: input.succeeded,
        },
        this.now().toISOString(),
      );
    } catch (error) {
      if (error instanceof LimitExceededError) return null;
      throw error;
    }
  }

  /** Whether the step a hint was shown for then succeeded: the skill's effectiveness. */
  async recordOutcome(
    tenantId: string,
    skillIds: readonly string[],
    success: boolean,
  ): Promise<void> {
    const at = this.now().toISOString();
    await Promise.all(
      skillIds.map((id) => this.store.skills.recordOutcome(tenantId, id, success, at)),
    );
  }

  private decay(skill: Skill, now: Date): number {
    const ageDays = Math.max(0, (now.getTime() - Date.parse(skill.lastUsed)) / 86_400_000);
    return 0.5 ** (ageDays / this.halfLifeDays);
  }
}

/** Laplace-smoothed, so a skill that worked once ranks below one that worked ten times. */
const successRate = (skill: Skill): number =>
  (skill.successCount + 1) / (skill.successCount + skill.failureCount + 2);
