// The end of a task: finish() or fail(), the goal verified, limits hit or the velocity check.
// Decides the final status and answer, and sends the terminal action (which the client
// executes as a no-op).
import { isTerminalAction, type ParsedAction, type Plan, type TaskStatus } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import type { InteractStateType, InteractStateUpdate, PendingAction } from '../../state';
import { logFor } from '../node-context';
import { sendAction } from '../outcomes';
import { makePending } from '../pending-action';

interface Ending {
  status: TaskStatus;
  result: string | null;
  action: ParsedAction;
}

/** finish()/fail() chosen by a node, unless the task already ended another way. */
function chosenTerminal(state: InteractStateType): PendingAction | null {
  const settled = state.status === 'completed' || state.status === 'failed';
  return state.pending && isTerminalAction(state.pending.action) && !settled ? state.pending : null;
}

/** The task's end: a terminal action a node chose decides it; otherwise the status does. */
export function endingOf(state: InteractStateType): Ending {
  const chosen = chosenTerminal(state);
  if (chosen) return chosenEnding(chosen);
  if (state.status === 'completed') {
    const result = state.result;
    return {
      status: 'completed',
      result,
      action: { name: 'finish', args: result ? { message: result } : {} },
    };
  }
  const result = state.result ?? 'The task could not be completed.';
  return { status: 'failed', result, action: { name: 'fail', args: { reason: result } } };
}

/** finish()/fail() from a node (the model, a deterministic resolver or the collect limit). */
function chosenEnding(pending: PendingAction): Ending {
  const terminal = pending.action;
  if (terminal.name === 'finish') {
    const result = terminal.args.message ?? pending.thought;
    return { status: 'completed', result, action: { name: 'finish', args: { message: result } } };
  }
  const result = terminal.name === 'fail' ? terminal.args.reason : pending.thought;
  return { status: 'failed', result, action: { name: 'fail', args: { reason: result } } };
}

/** A completed task's plan shows every step up to the current one as completed. */
export function completedPlan(state: InteractStateType, status: TaskStatus): Plan | null {
  if (!state.plan || status !== 'completed') return state.plan;
  return {
    ...state.plan,
    steps: state.plan.steps.map((s) =>
      s.status === 'active' || (s.index <= state.currentStepIndex && s.status === 'pending')
        ? { ...s, status: 'completed' as const }
        : s,
    ),
  };
}

export const finalize =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const page = state.page;
    if (!page) throw new Error('finalize needs the page state');
    const { status, result, action } = endingOf(state);
    const source = chosenTerminal(state)?.source ?? 'action_generation';
    const pending = makePending({ state, page, thought: result ?? '', action, source });
    logFor(deps, state, 'finalize').info('task finished', { status, steps: state.stepCount });
    return {
      status,
      result,
      plan: completedPlan(state, status),
      stepCount: state.stepCount + 1,
      pending,
      ...sendAction(),
    };
  };
