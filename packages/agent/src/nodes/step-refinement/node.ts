// Plan step → DOM action without a model when the step names its target ("Click 'New/Search'",
// "Type Jas into First name"): the same deterministic resolver as the SIMPLE path. Steps it
// cannot resolve go to action_generation.
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
        }),
      };
    }
    return { pending: null };
  };
