// Outcome prediction (docs/specs.md, "outcome prediction"): what should happen when the action
// runs. Dropdown openers, navigation and field edits use fixed templates (no LLM); the action's
// own answer states the rest (whether the goal is then done, its answer, the look-ahead), so the
// model is asked here only for an action that came without one (a correction's). The run then
// pauses to send the action.
import { parseAction, type ExpectedOutcome } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import { templateOutcome } from '../../engines/outcome-templates';
import { describePage, findNode, type PageState } from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate, PendingAction } from '../../state';
import { llmContext, logFor, withUsage } from '../node-context';
import { refusal, sendAction } from '../outcomes';
import { actionText } from '../pending-action';
import { expectedOf, mergeExpected, PredictedOutcome } from './predicted';
import { systemPrompt } from '../system-prompt';

export const outcomePredictionSystem = systemPrompt([
  'You predict the visible outcome of one browser action, for later verification.',
  'Be concrete and short. nextGoal names an element or text the NEXT plan step needs; required=false unless the next step is impossible without it.',
]);

export const outcomePrediction =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const pending = state.pending;
    const page = state.page;
    if (!pending || !page) throw new Error('outcome_prediction needs a pending action');
    if (state.stepCount >= deps.limits.maxStepsPerTask) {
      return refusal(
        'MAX_STEPS_EXCEEDED',
        `The task reached the maximum of ${deps.limits.maxStepsPerTask} steps.`,
        true,
      );
    }
    let expected = mergeExpected(templateFor(pending, page), pending.expectedOutcome);
    let tokens = state.tokens;
    if (!expected && deps.llm.configured && state.complexity === 'COMPLEX') {
      const predicted = await predictWithModel(deps, state, pending, page);
      expected = predicted.expected;
      tokens = predicted.tokens;
    }
    expected ??= { description: `The page responds to ${actionText(pending)}`, source: 'template' };
    logFor(deps, state, 'outcome_prediction').debug('predicted', {
      source: expected.source,
      action: actionText(pending),
    });
    return {
      pending: { ...pending, expectedOutcome: expected },
      tokens,
      status: 'executing',
      stepCount: state.stepCount + 1,
      kpiCounts: {
        actionsSent: pending.chain?.actions.length ?? 1,
        // Counted per step sent, not per generation call: a rejected proposal is not a step.
        ...(pending.source === 'action_generation' && state.skillHintIds.length > 0
          ? { skillHintSteps: 1 }
          : {}),
      },
      nextActionReady: false,
      pageReadsThisStep: 0,
      ...(state.criticRejections > 0 ? { criticRejections: 0 } : {}),
      ...sendAction(),
    };
  };

/** Chains and the actions with a fixed outcome need no model (engines/outcome-templates). */
function templateFor(pending: PendingAction, page: PageState): ExpectedOutcome | null {
  if (pending.chain) {
    const actions = pending.chain.actions;
    const last = parseAction(actions[actions.length - 1]?.action ?? '');
    // A chain ended by the form's button: the button's effect is the outcome to verify.
    const button = last.name === 'click' ? findNode(page.tree, last.args.id) : undefined;
    if (button?.r === 'btn') {
      return {
        description: `${actions.length - 1} ${actions.length === 2 ? 'field is' : 'fields are'} filled, then “${button.n ?? button.i}” is pressed and the page responds`,
        source: 'template',
      };
    }
    return {
      description: `All ${actions.length} fields hold their new values`,
      urlShouldChange: false,
      source: 'template',
    };
  }
  const action = pending.action;
  const target = 'id' in action.args ? findNode(page.tree, action.args.id) : undefined;
  return templateOutcome(action, target);
}

/** The model's prediction, with a look-ahead at what the next plan step needs. */
async function predictWithModel(
  deps: AgentDeps,
  state: InteractStateType,
  pending: PendingAction,
  page: PageState,
): Promise<{ expected: ExpectedOutcome; tokens: InteractStateType['tokens'] }> {
  const next = state.plan?.steps[state.currentStepIndex + 1];
  const result = await deps.llm.generate({
    node: 'outcome_prediction',
    actionType: 'OUTCOME_PREDICTION',
    system: outcomePredictionSystem,
    prompt: [
      `User goal: ${state.query}`,
      `Action: ${actionText(pending)} (${pending.thought})`,
      next ? `Next plan step: ${next.description}` : 'This is the last plan step.',
      `Page:\n${describePage(page, { maxElements: 120 })}`,
    ].join('\n\n'),
    schema: PredictedOutcome,
    schemaName: 'expected_outcome',
    context: llmContext(state),
  });
  return {
    expected: expectedOf(result.output),
    tokens: withUsage(state, result),
  };
}
