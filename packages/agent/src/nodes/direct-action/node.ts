// SIMPLE path: resolve a command that names its target deterministically against the tree
// (zero tokens); ask the LLM only when that is ambiguous or finds nothing.
import type { AgentDeps } from '../../deps';
import { parseCommand } from '../../engines/command-parser';
import { resolveIntent } from '../../engines/target-resolver';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { llmContext, logFor, makePending, validateAction, withUsage } from '../shared';
import { DirectActionOutput, directActionPrompt, directActionSystem } from './prompt';

export const directAction =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const log = logFor(deps, state, 'direct_action');
    const page = state.page;
    if (!page) throw new Error('direct_action needs the page state');
    const intent = parseCommand(state.query);
    const resolution = intent
      ? resolveIntent(intent, page.tree)
      : { kind: 'not_found' as const, reason: 'not a single command' };

    if (resolution.kind === 'resolved') {
      log.info('resolved deterministically', { action: resolution.actionString, tokens: 0 });
      const pending = makePending({
        state,
        page,
        thought: resolution.thought,
        action: resolution.action,
        source: 'direct_action',
      });
      return { pending };
    }

    if (!deps.llm.configured) {
      if (resolution.kind === 'ambiguous') {
        // Without a model we must not guess: ask which one was meant.
        return {
          output: {
            response: {
              needsUserInput: true,
              message: `Which one did you mean? ${resolution.reason}.`,
              missingInformation: ['which element'],
              sessionId: state.sessionId,
              taskId: null,
              thought: resolution.reason,
            },
            error: null,
            persistTask: false,
          },
        };
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

    const hint = resolution.kind === 'ambiguous' ? resolution.reason : resolution.reason;
    let feedback = '';
    let tokens = state.tokens;
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await deps.llm.generate({
        node: 'direct_action',
        actionType: 'DIRECT_ACTION',
        system: directActionSystem,
        prompt: directActionPrompt(state.query, page, [hint, feedback].filter(Boolean).join(' ')),
        schema: DirectActionOutput,
        schemaName: 'direct_action',
        context: llmContext(state),
      });
      tokens = withUsage({ ...state, tokens }, result);
      const checked = validateAction(result.output.action, page);
      if (checked.ok) {
        log.info('resolved with the LLM', { action: checked.actionString, attempt });
        return {
          pending: makePending({
            state,
            page,
            thought: result.output.thought,
            action: checked.action,
            source: 'direct_action',
          }),
          tokens,
        };
      }
      feedback = `Your previous answer ${result.output.action} was rejected: ${checked.reason}.`;
    }
    return {
      tokens,
      output: {
        response: null,
        error: {
          code: 'INVALID_ACTION',
          message: `The model produced no valid action: ${feedback}`,
          failTask: true,
        },
        persistTask: false,
      },
    };
  };
