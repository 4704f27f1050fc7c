// Routing functions of the interact graph: plain, exported, unit-tested, returning literal
// unions of node names (contracts' GraphNode), so a route to a node that does not exist is a
// type error. graph.ts only wires them.
import { isTerminalAction, type GraphNode } from '@tandem/contracts';
import type { InteractStateType } from './state';
import { takesOverSimpleCommand } from './capture/capture';
import { needsCritic } from './nodes/critic/node';
import { isChainBreak } from './nodes/verification/node';
import { replaying } from './routines/run';

export const END_RUN = '__end__' as const;

/** The nodes a route may name, checked against contracts' GraphNode (END_RUN is added apart). */
export type RouteTo<N extends GraphNode> = N;

const refused = (s: InteractStateType) => s.outcome?.kind === 'refused';
const asksUser = (s: InteractStateType) => s.outcome?.kind === 'ask_user';
const endsTask = (s: InteractStateType) => s.pending !== null && isTerminalAction(s.pending.action);
const isDone = (s: InteractStateType) => s.status === 'completed' || s.status === 'failed';

export function routeAfterComplexity(
  s: InteractStateType,
): RouteTo<'direct_action' | 'context_analysis' | 'action_generation'> | typeof END_RUN {
  if (refused(s)) return END_RUN;
  if (s.complexity !== 'SIMPLE') return 'context_analysis';
  // A command the tree cannot resolve on a page that needs more than the tree (a visual goal,
  // a canvas, an empty list): action generation asks for the capture and decides on it.
  return takesOverSimpleCommand(s) ? 'action_generation' : 'direct_action';
}

export function routeAfterDirectAction(
  s: InteractStateType,
): RouteTo<'outcome_prediction' | 'finalize' | 'dispatch'> | typeof END_RUN {
  if (refused(s)) return END_RUN;
  // A question pauses the task where an action would: the answer resumes it.
  if (asksUser(s)) return 'dispatch';
  return endsTask(s) ? 'finalize' : 'outcome_prediction';
}

export function routeAfterContext(
  s: InteractStateType,
): RouteTo<'web_search' | 'planning' | 'dispatch' | 'routine_step'> | typeof END_RUN {
  if (refused(s)) return END_RUN;
  if (asksUser(s)) return 'dispatch';
  // A saved routine matched the goal: its steps run without a plan or the model.
  if (replaying(s.routineRun)) return 'routine_step';
  return s.requiredSources.includes('WEB_SEARCH') ? 'web_search' : 'planning';
}

export function routeAfterWebSearch(
  s: InteractStateType,
): RouteTo<'planning' | 'dispatch'> | typeof END_RUN {
  if (refused(s)) return END_RUN;
  return asksUser(s) ? 'dispatch' : 'planning';
}

export function routeAfterRefinement(
  s: InteractStateType,
): RouteTo<'outcome_prediction' | 'action_generation'> {
  return s.pending !== null ? 'outcome_prediction' : 'action_generation';
}

export function routeAfterActionGeneration(
  s: InteractStateType,
): RouteTo<'critic' | 'outcome_prediction' | 'finalize' | 'dispatch'> | typeof END_RUN {
  if (refused(s)) return END_RUN;
  // Asking the client for a snapshot or a capture, or the user for a value: no action.
  if (s.pageRequest !== null || s.captureRequest !== null || asksUser(s)) return 'dispatch';
  if (needsCritic(s)) return 'critic';
  return endsTask(s) ? 'finalize' : 'outcome_prediction';
}

export function routeAfterCritic(
  s: InteractStateType,
): RouteTo<'action_generation' | 'outcome_prediction' | 'finalize'> {
  // Rejected: the model proposes again, with the reason, in this same request.
  if (s.pending === null) return 'action_generation';
  return endsTask(s) ? 'finalize' : 'outcome_prediction';
}

export function routeAfterDispatch(
  s: InteractStateType,
):
  | RouteTo<
      | 'verification'
      | 'action_generation'
      | 'extraction'
      | 'context_analysis'
      | 'direct_action'
      | 'finalize'
      | 'routine_step'
    >
  | typeof END_RUN {
  // An edit the user may not make ends the run; a single command the user rejected, the task.
  if (refused(s)) return END_RUN;
  if (isDone(s)) return 'finalize';
  // An answer resumes the node that asked; a page read (or a step the user rejected), action
  // generation (an extraction's content, the extraction first); an action, its check.
  if (s.resumeAt) return s.resumeAt;
  if (!s.resumedFromPageRead) return 'verification';
  if (s.pendingExtraction !== null) return 'extraction';
  // A routine's collect step asked for the page's HTML: it reads the items itself.
  return replaying(s.routineRun) && s.routineRun.unit !== null
    ? 'routine_step'
    : 'action_generation';
}

export function routeAfterRoutineStep(
  s: InteractStateType,
): RouteTo<'outcome_prediction' | 'action_generation' | 'finalize' | 'dispatch'> | typeof END_RUN {
  if (refused(s)) return END_RUN;
  if (isDone(s)) return 'finalize';
  if (s.pending !== null) return 'outcome_prediction';
  // A saved extraction asks the client for the page's content first.
  if (s.pageRequest !== null) return 'dispatch';
  // A step to heal, or the routine handed over: the model acts from here.
  return 'action_generation';
}

/** An extraction's result goes back to whoever asked: the routine's read, or the model. */
export function routeAfterExtraction(
  s: InteractStateType,
): RouteTo<'routine_step' | 'action_generation'> {
  return replaying(s.routineRun) && s.routineRun.unit !== null
    ? 'routine_step'
    : 'action_generation';
}

export function routeAfterOutcome(s: InteractStateType): RouteTo<'dispatch'> | typeof END_RUN {
  return refused(s) ? END_RUN : 'dispatch';
}

export function routeAfterVerification(
  s: InteractStateType,
): RouteTo<'chain_recovery' | 'finalize' | 'advance' | 'correction' | 'action_generation'> {
  // A routine judges its own steps (a chain that broke included): the next one, or a heal.
  if (replaying(s.routineRun)) {
    if (isDone(s)) return 'finalize';
    return s.routineRun.healing ? 'action_generation' : 'advance';
  }
  if (isChainBreak(s)) return 'chain_recovery';
  if (isDone(s)) return 'finalize';
  return s.lastVerification?.success ? 'advance' : 'correction';
}

export function routeAfterCorrection(
  s: InteractStateType,
): RouteTo<'critic' | 'outcome_prediction' | 'finalize'> | typeof END_RUN {
  if (refused(s)) return END_RUN;
  if (isDone(s) || !s.nextActionReady) return 'finalize';
  return needsCritic(s) ? 'critic' : 'outcome_prediction';
}

export function routeAfterChainRecovery(
  s: InteractStateType,
): RouteTo<'outcome_prediction' | 'advance' | 'action_generation'> {
  if (s.nextActionReady && s.pending) return 'outcome_prediction';
  return s.lastVerification?.success ? 'advance' : 'action_generation';
}

export function routeAfterAdvance(
  s: InteractStateType,
): RouteTo<'replanning' | 'step_refinement' | 'action_generation' | 'routine_step'> {
  if (replaying(s.routineRun)) return 'routine_step';
  // The page changed under the plan: check the plan before the next step.
  if (s.replanSignal !== null && s.plan !== null) return 'replanning';
  return routeAfterReplanning(s);
}

export function routeAfterReplanning(
  s: InteractStateType,
): RouteTo<'step_refinement' | 'action_generation'> {
  const step = s.plan?.steps[s.currentStepIndex];
  return step && step.status !== 'completed' ? 'step_refinement' : 'action_generation';
}
