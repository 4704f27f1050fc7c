// Plan step → DOM action without a model when the step names its target ("Click 'New/Search'",
// "Type Jas into First name"): the same deterministic resolver as the SIMPLE path. Steps it
// cannot resolve go to action_generation. Its expected outcome is the planner's, so outcome
// prediction asks no model for it either.
import type { ExpectedOutcome, ParsedAction, Plan } from '@tandem/contracts';
import { findNode, type PageState } from '../../page/page-state';
import type { AgentDeps } from '../../deps';
import { parseCommand } from '../../engines/command-parser';
import { resolveIntent } from '../../engines/target-resolver';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { logFor } from '../node-context';
import { makePending } from '../pending-action';

export const stepRefinement =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const page = state.page;
    const step = state.plan?.steps[state.currentStepIndex];
    if (!page || !step || step.status === 'completed') return { pending: null };
    const intent = parseCommand(step.description);
    const resolution = intent ? resolveIntent(intent, page.tree) : null;
    if (resolution?.kind === 'resolved' && resolution.action.name !== 'finish') {
      logFor(deps, state, 'step_refinement').info('refined deterministically', {
        step: state.currentStepIndex,
        action: resolution.actionString,
        tokens: 0,
      });
      return {
        pending: makePending({
          state,
          page,
          thought: `Step ${state.currentStepIndex + 1}: ${step.description}. ${resolution.thought}`,
          action: resolution.action,
          source: 'step_refinement',
          expectedOutcome: state.plan
            ? plannedOutcome(
                state.plan,
                state.currentStepIndex,
                linkTarget(page, resolution.action),
              )
            : null,
        }),
      };
    }
    return { pending: null };
  };

/**
 * What the planner said the step shows, and for its last step that the goal is then done
 * (with the plan's answer); the next step's named target is the look-ahead, not required.
 */
export function plannedOutcome(
  plan: Plan,
  index: number,
  /** The step clicks a link: it leads to another page. */
  followsLink = false,
): ExpectedOutcome | null {
  const step = plan.steps[index];
  if (!step) return null;
  const last = index === plan.steps.length - 1;
  const next = plan.steps[index + 1];
  const intent = next ? parseCommand(next.description) : null;
  const target = intent && 'target' in intent ? intent.target : null;
  return {
    description: step.expect ? `The page shows “${step.expect}”` : `${step.description}: done`,
    ...(step.expect ? { textShouldAppear: step.expect } : {}),
    ...(followsLink ? { urlShouldChange: true } : {}),
    completesGoal: last,
    ...(last && plan.answer ? { answer: plan.answer } : {}),
    ...(next && target
      ? { nextGoal: { description: next.description, textContent: target, required: false } }
      : {}),
    source: 'llm',
  };
}

/** Whether the action clicks a link of the page (a link's click changes the URL). */
function linkTarget(page: PageState, action: ParsedAction): boolean {
  return action.name === 'click' && findNode(page.tree, action.args.id)?.r === 'link';
}
