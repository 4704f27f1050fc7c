// The end of a task: finish() or fail(), the goal verified, limits hit or the velocity check.
// Decides the final status and answer, and sends the terminal action (which the client
// executes as a no-op).
import {
  formatAction,
  isTerminalAction,
  type HierarchicalPlan,
  type ParsedAction,
  type Plan,
  type TaskStatus,
} from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import type { InteractStateType, InteractStateUpdate, PendingAction } from '../../state';
import { validateAction } from '../action-check';
import { policyOf } from '../action-policy';
import { pressedNextStep } from '../advance/node';
import { renderHistory } from '../history';
import { fellBack, llmContext, logFor, withUsage } from '../node-context';
import { sendAction } from '../outcomes';
import { replaying } from '../../routines/run';
import { actionSummaryOf, makePending } from '../pending-action';
import { FinalAnswerOutput, finalAnswerPrompt, finalAnswerSystem } from './prompt';

export interface Ending {
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
  // A chain that pressed the form's button did the next step too.
  const upTo = state.currentStepIndex + (pressedNextStep(state.plan, state) ? 1 : 0);
  return {
    ...state.plan,
    steps: state.plan.steps.map((s) =>
      s.status === 'active' || (s.index <= upTo && s.status === 'pending')
        ? { ...s, status: 'completed' as const }
        : s,
    ),
  };
}

/**
 * The sub-task in progress ends with the task: completed, or failed. Later ones a task never
 * reached (the goal was achieved early) stay pending, as they were.
 */
export function endedHierarchy(
  state: InteractStateType,
  status: TaskStatus,
): HierarchicalPlan | null {
  const hierarchy = state.hierarchicalPlan;
  if (!hierarchy) return null;
  const ended = status === 'completed' ? 'completed' : 'failed';
  return {
    ...hierarchy,
    subTasks: hierarchy.subTasks.map((task) =>
      task.status === 'active' ? { ...task, status: ended } : task,
    ),
  };
}

export const finalize =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const page = state.page;
    if (!page) throw new Error('finalize needs the page state');
    const ending = endingOf(state);
    const written = await finalAnswer(deps, state, ending);
    const result = written.answer;
    const action: ParsedAction =
      ending.status === 'completed'
        ? { name: 'finish', args: { message: result } }
        : { name: 'fail', args: { reason: result } };
    const source = chosenTerminal(state)?.source ?? 'action_generation';
    const thought = written.note ? `${result}\n${written.note}` : result;
    const pending = makePending({ state, page, thought, action, source });
    logFor(deps, state, 'finalize').info('task finished', {
      status: ending.status,
      steps: state.stepCount,
    });
    return {
      status: ending.status,
      result,
      tokens: written.tokens,
      plan: completedPlan(state, ending.status),
      ...(state.hierarchicalPlan ? { hierarchicalPlan: endedHierarchy(state, ending.status) } : {}),
      stepCount: state.stepCount + 1,
      kpiCounts: { actionsSent: 1 },
      pending,
      ...sendAction(),
    };
  };

/**
 * The answer the user reads, written once. A finish() message the model wrote is already one;
 * a task that ended because verification saw the goal achieved gets a summary from the model
 * (when there is one: the verifier's reason is evidence, not an answer); everything else, and
 * a model that fails, gets a clear template. Failures keep their reason.
 */
export async function finalAnswer(
  deps: AgentDeps,
  state: InteractStateType,
  ending: Ending,
): Promise<{ answer: string; tokens: InteractStateType['tokens']; note?: string }> {
  const tokens = state.tokens;
  const template = templateAnswer(state, ending);
  const chosen = chosenTerminal(state);
  const written = chosen?.action.name === 'finish' && chosen.action.args.message;
  if (ending.status !== 'completed' || written || state.complexity !== 'COMPLEX')
    return { answer: template, tokens };
  // A routine that ran to its end says so itself: no model call for the answer.
  if (replaying(state.routineRun) && ending.result) return { answer: ending.result, tokens };
  const predicted = predictedAnswer(state);
  if (predicted) return { answer: predicted, tokens };
  if (!deps.llm.configured) return { answer: template, tokens };
  try {
    const result = await deps.llm.generate({
      node: 'finalize',
      actionType: 'FINAL_ANSWER',
      system: finalAnswerSystem,
      prompt: finalAnswerPrompt({
        goal: state.query,
        steps: renderHistory(state),
        outcome: ending.result ?? 'the goal was achieved',
        confirmations: state.page?.successMessages ?? [],
      }),
      schema: FinalAnswerOutput,
      schemaName: 'final_answer',
      context: llmContext(state),
    });
    return { answer: result.output.answer, tokens: withUsage(state, result) };
  } catch (error) {
    // The task is done either way; a template answer beats failing a finished task.
    logFor(deps, state, 'finalize').warn('final answer call failed; using the template', {
      error: error instanceof Error ? error.message : String(error),
    });
    return {
      answer: template,
      tokens,
      note: fellBack(deps, 'finalize', 'A template answer', error),
    };
  }
}

/**
 * The answer the model wrote with the step that achieved the goal, once verification confirmed
 * it (one call fewer). It leaves as finish()'s message would, so it passes the same check (a
 * page must not be able to smuggle data out through it); refused, a model writes one instead.
 */
function predictedAnswer(state: InteractStateType): string | null {
  const done = state.pending;
  const answer = done?.expectedOutcome?.answer;
  if (!done || !answer || isTerminalAction(done.action) || !state.lastVerification?.goalAchieved)
    return null;
  const checked = validateAction(
    formatAction({ name: 'finish', args: { message: answer } }),
    state.page,
    policyOf(state),
  );
  return checked.ok ? answer : null;
}

/** The answer without a model: what was done, or the reason it failed. */
export function templateAnswer(state: InteractStateType, ending: Ending): string {
  if (ending.status !== 'completed') return ending.result ?? 'The task could not be completed.';
  const chosen = chosenTerminal(state);
  if (chosen?.action.name === 'finish' && chosen.action.args.message)
    return chosen.action.args.message;
  const done = state.pending;
  if (state.complexity === 'SIMPLE' && done && !isTerminalAction(done.action))
    return `${actionSummaryOf(done)}.`;
  const confirmation = state.page?.successMessages[0];
  return confirmation
    ? `Done: “${state.query}”. The page says: “${confirmation}”`
    : `Done: “${state.query}”.`;
}
