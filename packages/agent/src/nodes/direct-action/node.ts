// SIMPLE path: resolve a command that names its target deterministically against the tree
// (zero tokens); ask the LLM only when that is ambiguous or finds nothing.
import type { AgentDeps } from '../../deps';
import { parseCommand, type CommandIntent } from '../../engines/command-parser';
import { resolveIntent, type Resolution } from '../../engines/target-resolver';
import type { PageState } from '../../page/page-state';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { validateAction } from '../action-check';
import { policyOf, policyProblem, taskRules } from '../action-policy';
import { llmContext, logFor, withUsage } from '../node-context';
import { askUser, refusal } from '../outcomes';
import { makePending } from '../pending-action';
import { DirectActionOutput, directActionPrompt, directActionSystem } from './prompt';

/** The command, with the user's answer as its target once they said which one they meant. */
export function intentOf(state: Pick<InteractStateType, 'query' | 'answer'>): CommandIntent | null {
  const intent = parseCommand(state.query);
  if (!intent || !state.answer || !('target' in intent)) return intent;
  return { ...intent, target: state.answer };
}

/** Answers the model gets to name a valid action before the task fails. */
export const DIRECT_ACTION_ATTEMPTS = 2;

export const directAction =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const page = state.page;
    if (!page) throw new Error('direct_action needs the page state');
    const intent = intentOf(state);
    const resolution: Resolution = intent
      ? resolveIntent(intent, page.tree)
      : { kind: 'not_found', reason: 'not a single command' };
    const refused =
      resolution.kind === 'resolved'
        ? policyProblem(resolution.action, page, policyOf(state))
        : null;
    if (refused) return withoutModel(state, page, { kind: 'not_found', reason: refused });
    if (resolution.kind === 'resolved') {
      logFor(deps, state, 'direct_action').info('resolved deterministically', {
        action: resolution.actionString,
        tokens: 0,
      });
      const pending = makePending({
        state,
        page,
        thought: resolution.thought,
        action: resolution.action,
        source: 'direct_action',
      });
      return { pending };
    }
    if (!deps.llm.configured) return withoutModel(state, page, resolution);
    return askModel(deps, state, page, resolution.reason);
  };

/** No model to resolve what the tree could not: ask which one was meant, or fail. */
function withoutModel(
  state: InteractStateType,
  page: PageState,
  resolution: Exclude<Resolution, { kind: 'resolved' }>,
): InteractStateUpdate {
  if (resolution.kind === 'ambiguous') {
    // Without a model we must not guess: ask which one was meant.
    return askUser(state, 'direct_action', {
      message: `Which one did you mean? ${resolution.reason}.`,
      missingInformation: ['which element'],
      thought: resolution.reason,
    });
  }
  const pending = makePending({
    state,
    page,
    thought: `I could not do "${state.query}": ${resolution.reason}.`,
    action: { name: 'fail', args: { reason: resolution.reason } },
    source: 'direct_action',
  });
  return { pending };
}

/** The model names the action, with the resolver's reason as a hint and a retry on a bad one. */
async function askModel(
  deps: AgentDeps,
  state: InteractStateType,
  page: PageState,
  hint: string,
): Promise<InteractStateUpdate> {
  let feedback = '';
  let tokens = state.tokens;
  for (let attempt = 0; attempt < DIRECT_ACTION_ATTEMPTS; attempt++) {
    const result = await deps.llm.generate({
      node: 'direct_action',
      actionType: 'DIRECT_ACTION',
      system: directActionSystem,
      prompt: directActionPrompt(
        state.query,
        page,
        [hint, feedback].filter(Boolean).join(' '),
        taskRules(state),
      ),
      schema: DirectActionOutput,
      schemaName: 'direct_action',
      context: llmContext(state),
    });
    tokens = withUsage({ tokens }, result);
    const checked = validateAction(result.output.action, page, policyOf(state));
    if (checked.ok) {
      logFor(deps, state, 'direct_action').info('resolved with the LLM', {
        action: checked.actionString,
        attempt,
      });
      const thought = result.output.thought;
      const action = checked.action;
      return {
        pending: makePending({ state, page, thought, action, source: 'direct_action' }),
        tokens,
      };
    }
    feedback = `Your previous answer ${result.output.action} was rejected: ${checked.reason}.`;
  }
  return {
    tokens,
    ...refusal('INVALID_ACTION', `The model produced no valid action: ${feedback}`, true),
  };
}
