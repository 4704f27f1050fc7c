// Spec 003 Step 1.9: what should happen when the action runs. Dropdown openers, navigation and
// field edits use fixed templates (no LLM); other actions ask the model, with a look-ahead
// nextGoal that verification checks. Then the response for the client is built.
import { parseAction, type ExpectedOutcome } from '@tandem/contracts';
import { z } from 'zod';
import type { AgentDeps } from '../../deps';
import { templateOutcome } from '../../engines/outcome-templates';
import { describePage, findNode, UNTRUSTED_CONTENT_RULE } from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { actionResponse, llmContext, logFor, refusal, withUsage } from '../shared';

const OutcomeOutput = z.object({
  description: z.string().describe('What the page should show after the action.'),
  urlShouldChange: z.boolean(),
  nextGoal: z
    .object({ description: z.string(), textContent: z.string().nullable(), required: z.boolean() })
    .nullable()
    .describe('What must be visible for the next plan step (look-ahead), or null.'),
});

const system = [
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
    const action = parseAction(pending.action);
    const target = 'id' in action.args ? findNode(page.tree, action.args.id) : undefined;
    let expected: ExpectedOutcome | null = pending.chain
      ? {
          description: `All ${pending.chain.actions.length} fields hold their new values`,
          urlShouldChange: false,
          source: 'template',
        }
      : templateOutcome(action, target);
    let tokens = state.tokens;
    if (!expected && deps.llm.configured && state.complexity === 'COMPLEX') {
      const next = state.plan?.steps[state.currentStepIndex + 1];
      const result = await deps.llm.generate({
        node: 'outcome_prediction',
        actionType: 'OUTCOME_PREDICTION',
        system,
        prompt: [
          `Action: ${pending.action} (${pending.thought})`,
          next ? `Next plan step: ${next.description}` : 'This is the last plan step.',
          `Page:\n${describePage(page, { maxElements: 120 })}`,
        ].join('\n\n'),
        schema: OutcomeOutput,
        schemaName: 'expected_outcome',
        context: llmContext(state),
      });
      tokens = withUsage(state, result);
      const o = result.output;
      expected = {
        description: o.description,
        urlShouldChange: o.urlShouldChange,
        ...(o.nextGoal
          ? {
              nextGoal: {
                description: o.nextGoal.description,
                ...(o.nextGoal.textContent ? { textContent: o.nextGoal.textContent } : {}),
                required: o.nextGoal.required,
              },
            }
          : {}),
        source: 'llm',
      };
    }
    expected ??= { description: `The page responds to ${pending.action}`, source: 'template' };
    const withOutcome = { ...pending, expectedOutcome: expected };
    const next = { ...state, pending: withOutcome, tokens, status: 'executing' as const };
    logFor(deps, state, 'outcome_prediction').debug('predicted', {
      source: expected.source,
      action: pending.action,
    });
    return {
      pending: withOutcome,
      tokens,
      status: 'executing',
      stepCount: state.stepCount + 1,
      nextActionReady: false,
      pageReadsThisStep: 0,
      output: { response: actionResponse(next, withOutcome), error: null, persistTask: true },
    };
  };
