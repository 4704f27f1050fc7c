// The skills library in the loop (docs/specs.md, "episodic memory"): lessons shown before action
// generation, and what verification teaches it — a correction that worked becomes a lesson,
// and a step that had lessons in its prompt counts for or against them. Never fails a step:
// a lesson is worth keeping, not worth losing a step for.
import type { AgentDeps } from '../deps';
import type { InteractStateType, PendingAction } from '../state';
import { logFor } from '../nodes/node-context';

export interface ShownSkills {
  ids: string[];
  /** The prompt's "Lessons from earlier tasks" lines; empty when there are none. */
  text: string;
}

export async function skillsFor(
  deps: AgentDeps,
  state: InteractStateType,
  url: string,
): Promise<ShownSkills> {
  if (!deps.skills) return { ids: [], text: '' };
  try {
    const hints = await deps.skills.hintsFor({ tenantId: state.tenantId, url, goal: state.query });
    return { ids: hints.map((h) => h.skillId), text: hints.map((h) => `- ${h.text}`).join('\n') };
  } catch (error) {
    logFor(deps, state, 'action_generation').warn('skills lookup failed', { error });
    return { ids: [], text: '' };
  }
}

/** After a verdict: learn from a correction that worked, score the lessons that were shown. */
export async function learnFromVerdict(
  deps: AgentDeps,
  state: InteractStateType,
  pending: PendingAction,
  success: boolean,
): Promise<void> {
  const skills = deps.skills;
  if (!skills) return;
  try {
    if (state.skillHintIds.length > 0 && pending.source === 'action_generation') {
      await skills.recordOutcome(state.tenantId, state.skillHintIds, success);
    }
    const correction = state.corrections.at(-1);
    if (!success || pending.source !== 'correction' || !correction) return;
    // A contingency the plan foresaw is not a lesson: the planner will foresee it again.
    if (correction.strategy === 'CONTINGENCY') return;
    // A target that only re-rendered under a new id teaches nothing a later task could use.
    if (correction.failedSummary && correction.failedSummary === correction.correctedSummary) {
      return;
    }
    const skill = await skills.learn({
      tenantId: state.tenantId,
      url: pending.beforeState.url,
      goal: state.query,
      failed: {
        action: correction.failedAction,
        elementDescription: correction.failedSummary ?? correction.failedAction,
        errorType: 'VERIFICATION_FAILED',
      },
      succeeded: {
        action: correction.correctedAction,
        elementDescription: correction.correctedSummary ?? correction.correctedAction,
        strategy: correction.strategy,
      },
    });
    if (skill) logFor(deps, state, 'verification').info('skill learned', { skillId: skill.id });
  } catch (error) {
    logFor(deps, state, 'verification').warn('skills update failed', { error });
  }
}
