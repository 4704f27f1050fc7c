// The end of a task: finish() or fail(), the goal verified, limits hit or the velocity check.
// Builds the last response (a terminal action the client executes as a no-op) and stops.
import { formatAction, parseAction, type ParsedAction } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { actionResponse, logFor, makePending } from '../shared';

export const finalize =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const page = state.page;
    if (!page) throw new Error('finalize needs the page state');
    // A terminal action chosen by a node (finish()/fail() from the model) decides the status.
    const chosen =
      state.pending &&
      /^(finish|fail)\(/.test(state.pending.action) &&
      state.status !== 'completed' &&
      state.status !== 'failed'
        ? state.pending
        : null;
    let status = state.status;
    let result = state.result;
    let action: ParsedAction;
    if (chosen) {
      const terminal = parseAction(chosen.action);
      if (terminal.name === 'finish') {
        status = 'completed';
        result = terminal.args.message ?? chosen.thought;
        action = { name: 'finish', args: { message: result } };
      } else {
        status = 'failed';
        result = terminal.name === 'fail' ? terminal.args.reason : chosen.thought;
        action = { name: 'fail', args: { reason: result } };
      }
    } else if (status === 'completed') {
      action = { name: 'finish', args: result ? { message: result } : {} };
    } else {
      status = 'failed';
      result ??= 'The task could not be completed.';
      action = { name: 'fail', args: { reason: result } };
    }
    const thought = result ?? '';
    const pending = makePending({
      state,
      page,
      thought,
      action,
      source: chosen?.source ?? 'action_generation',
    });
    const final = { ...pending, action: formatAction(action) };
    logFor(deps, state, 'finalize').info('task finished', { status, steps: state.stepCount });
    const plan =
      state.plan && status === 'completed'
        ? {
            ...state.plan,
            steps: state.plan.steps.map((s) =>
              s.status === 'active' || (s.index <= state.currentStepIndex && s.status === 'pending')
                ? { ...s, status: 'completed' as const }
                : s,
            ),
          }
        : state.plan;
    const next = { ...state, status, result, plan, stepCount: state.stepCount + 1 };
    return {
      status,
      result,
      plan,
      stepCount: state.stepCount + 1,
      pending: final,
      output: {
        response: { ...actionResponse(next, final), status, result: result ?? undefined },
        error: null,
        persistTask: true,
      },
    };
  };
