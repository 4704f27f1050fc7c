// Routing functions of the interact graph: plain, exported, unit-tested, returning literal
// unions. graph.ts only wires them.
import type { InteractStateType } from './state';
import { isChainBreak } from './nodes/verification/node';

export const END_RUN = '__end__' as const;

const refused = (s: InteractStateType) => s.output.error !== null;
const answered = (s: InteractStateType) => s.output.response !== null;
const isTerminalAction = (s: InteractStateType) =>
  s.pending !== null && /^(finish|fail)\(/.test(s.pending.action);
const isDone = (s: InteractStateType) => s.status === 'completed' || s.status === 'failed';

export function routeAfterComplexity(
  s: InteractStateType,
): 'direct_action' | 'context_analysis' | typeof END_RUN {
  if (refused(s)) return END_RUN;
  return s.complexity === 'SIMPLE' ? 'direct_action' : 'context_analysis';
}

export function routeAfterDirectAction(
  s: InteractStateType,
): 'outcome_prediction' | 'finalize' | typeof END_RUN {
  if (refused(s) || answered(s)) return END_RUN;
  return isTerminalAction(s) ? 'finalize' : 'outcome_prediction';
}

export function routeAfterContext(
  s: InteractStateType,
): 'web_search' | 'planning' | typeof END_RUN {
  if (refused(s) || answered(s)) return END_RUN;
  return s.requiredSources.includes('WEB_SEARCH') ? 'web_search' : 'planning';
}

export function routeAfterWebSearch(s: InteractStateType): 'planning' | typeof END_RUN {
  return refused(s) || answered(s) ? END_RUN : 'planning';
}

export function routeAfterRefinement(
  s: InteractStateType,
): 'outcome_prediction' | 'action_generation' {
  return s.pending !== null ? 'outcome_prediction' : 'action_generation';
}

export function routeAfterActionGeneration(
  s: InteractStateType,
): 'outcome_prediction' | 'finalize' | 'dispatch' | typeof END_RUN {
  if (refused(s)) return END_RUN;
  // Asking the client for a snapshot: no action, nothing to predict.
  if (s.pageRequest !== null) return 'dispatch';
  return isTerminalAction(s) ? 'finalize' : 'outcome_prediction';
}

export function routeAfterDispatch(s: InteractStateType): 'verification' | 'action_generation' {
  return s.resumedFromPageRead ? 'action_generation' : 'verification';
}

export function routeAfterOutcome(s: InteractStateType): 'dispatch' | typeof END_RUN {
  return refused(s) ? END_RUN : 'dispatch';
}

export function routeAfterVerification(
  s: InteractStateType,
): 'chain_recovery' | 'finalize' | 'advance' | 'correction' {
  if (isChainBreak(s)) return 'chain_recovery';
  if (isDone(s)) return 'finalize';
  return s.lastVerification?.success ? 'advance' : 'correction';
}

export function routeAfterCorrection(
  s: InteractStateType,
): 'outcome_prediction' | 'finalize' | typeof END_RUN {
  if (refused(s)) return END_RUN;
  return isDone(s) || !s.nextActionReady ? 'finalize' : 'outcome_prediction';
}

export function routeAfterChainRecovery(
  s: InteractStateType,
): 'outcome_prediction' | 'advance' | 'action_generation' {
  if (s.nextActionReady && s.pending) return 'outcome_prediction';
  return s.lastVerification?.success ? 'advance' : 'action_generation';
}

export function routeAfterAdvance(s: InteractStateType): 'step_refinement' | 'action_generation' {
  const step = s.plan?.steps[s.currentStepIndex];
  return step && step.status !== 'completed' ? 'step_refinement' : 'action_generation';
}
