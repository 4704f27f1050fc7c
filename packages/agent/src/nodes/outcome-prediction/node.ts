// Outcome prediction (docs/specs.md, "outcome prediction"): what should happen when the action
// runs. Dropdown openers, navigation and field edits use fixed templates (no LLM); other actions
// ask the model, with a look-ahead nextGoal that verification checks. The run then pauses to send
// the action.
import { parseAction, type ExpectedOutcome } from '@tandem/contracts';
import { z } from 'zod';
import type { AgentDeps } from '../../deps';
import { templateOutcome } from '../../engines/outcome-templates';
import {
  describePage,
  findNode,
  UNTRUSTED_CONTENT_RULE,
  type PageState,
} from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate, PendingAction } from '../../state';
import { llmContext, logFor, withUsage } from '../node-context';
import { refusal, sendAction } from '../outcomes';
import { actionText } from '../pending-action';

const OutcomeOutput = z.object({
  description: z.string().describe('What the page should show after the action.'),
  urlShouldChange: z.boolean(),
  nextGoal: z
    .object({
      description: z.string(),
      textContent: z.string().nullable(),
      role: z.string().nullish().describe('Role code of that element in the tree (btn, tf…).'),
      required: z.boolean(),
    })
    .nullable()
    .describe('What must be visible for the next plan step (look-ahead), or null.'),
});

export const outcomePredictionSystem = [
  'You predict the visible outcome of one browser action, for later verification.',
  'Be concrete and short. nextGoal names an element or text the NEXT plan step needs; required=false unless the next step is impossible without it.',
  UNTRUSTED_CONTENT_RULE,
].join('\n');

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
    let expected = templateFor(pending, page);
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
      `Action: ${actionText(pending)} (${pending.thought})`,
      next ? `Next plan step: ${next.description}` : 'This is the last plan step.',
      `Page:\n${describePage(page, { maxElements: 120 })}`,
    ].join('\n\n'),
    schema: OutcomeOutput,
    schemaName: 'expected_outcome',
    context: llmContext(state),
  });
  const o = result.output;
  const nextGoal = o.nextGoal
    ? {
        description: o.nextGoal.description,
        ...(o.nextGoal.textContent ? { textContent: o.nextGoal.textContent } : {}),
        ...(o.nextGoal.role ? { role: o.nextGoal.role } : {}),
        required: o.nextGoal.required,
      }
    : null;
  return {
    expected: {
      description: o.description,
      urlShouldChange: o.urlShouldChange,
      ...(nextGoal ? { nextGoal } : {}),
      source: 'llm',
    },
    tokens: withUsage(state, result),
  };
}
