// Verification of a routine's steps, without a model: the unit the routine sent is checked
// against the outcome the first run verified (replay.ts's checkOutcome), and the model's heal
// of a step against that step's recorded outcome. A step that verifies moves the routine on
// (and ends the task at its last step); one that does not is healed once, and a page that is
// not the routine's hands the task to the full agent. A heal whose action does not give the
// recorded outcome is judged by the normal tiers, and the full agent goes on from there.
import {
  parseAction,
  type ParsedAction,
  type RoutineExpectation,
  type RoutineStep,
  type VerificationResult,
} from '@tandem/contracts';
import type { AgentDeps } from '../deps';
import { appendPrevious } from '../nodes/history';
import { sentText } from '../nodes/pending-action';
import type { PageState } from '../page/page-state';
import type { InteractStateType, InteractStateUpdate, PendingAction } from '../state';
import { checkOutcome, likeUrl, substitutionsOf, type OutcomeCheck } from './replay';
import { fallBack, replaying, stepLabel, type RoutineRun } from './run';
import { fallBackUpdate, healUpdate, routineAnswer } from './handover';
import { traceVerdict, type RoutineTraceEntry } from './trace';

/** A chained step's outcome: nothing left the page and every field holds what was typed. */
const FIELDS_ONLY: RoutineExpectation = {
  tier: 1,
  urlChanged: false,
  url: '',
  domChanged: false,
  network: false,
  fieldsHold: true,
  text: [],
  reason: 'the fields hold the values typed',
};

/** The outcome the routine recorded for the unit ending at `step` (a chained step: its fields). */
const expectOf = (run: RoutineRun, step: number): RoutineExpectation =>
  (run.routine.steps[step] as RoutineStep).expect ?? FIELDS_ONLY;

function actionsOf(pending: PendingAction): ParsedAction[] {
  return pending.chain ? pending.chain.actions.map((a) => parseAction(a.action)) : [pending.action];
}

function check(
  run: RoutineRun,
  expect: RoutineExpectation,
  pending: PendingAction,
  page: PageState,
): OutcomeCheck {
  return checkOutcome(
    expect,
    actionsOf(pending),
    {
      url: pending.beforeState.url,
      domHash: pending.beforeState.domHash,
      skeleton: pending.beforeState.semanticSkeleton,
    },
    page,
    substitutionsOf(run.routine.parameters, run.values),
  );
}

/** The page left for one the routine never went to: not a change to heal, another page. */
function offRoute(expect: RoutineExpectation, pending: PendingAction, page: PageState): boolean {
  const moved = page.url.replace(/#.*$/, '') !== pending.beforeState.url.replace(/#.*$/, '');
  if (!moved) return false;
  return !expect.urlChanged || !likeUrl(page.url, expect.url);
}

function verdict(success: boolean, reason: string, completed: boolean): VerificationResult {
  return {
    success,
    confidence: success ? 0.95 : 0.9,
    reason,
    actionSucceeded: success,
    taskCompleted: completed,
    goalAchieved: completed,
    verificationTier: 1,
    tokensSaved: 0,
  };
}

/** The bookkeeping every routine verdict shares: the trace, the history, the counters. */
function recorded(
  state: InteractStateType,
  pending: PendingAction,
  page: PageState,
  result: VerificationResult,
  /** The actions ran though the outcome differs: the history says they are done. */
  ran = result.success,
): InteractStateUpdate {
  return {
    lastVerification: result,
    ...traceVerdict(state, pending, page, result),
    consecutiveFailures: result.success ? 0 : state.consecutiveFailures + 1,
    retryCount: 0,
    ...appendPrevious(state, {
      stepIndex: pending.stepIndex,
      action: sentText(pending),
      thought: pending.thought,
      success: ran,
      reason: ran && !result.success ? `it ran, but ${result.reason}` : result.reason,
    }),
  };
}

/** The routine moved on to `next`: done at its end, where the task completes. */
function movedOn(
  state: InteractStateType,
  run: RoutineRun,
  next: number,
  patch: Partial<RoutineRun>,
): InteractStateUpdate {
  const moved: RoutineRun = { ...run, ...patch, next, unit: null, healing: null };
  return next >= run.routine.steps.length
    ? {
        routineRun: moved,
        status: 'completed',
        result: routineAnswer(moved, state),
      }
    : { routineRun: moved };
}

/** The routine's own unit came back: did it do what it did when the routine was saved? */
function unitVerdict(
  deps: AgentDeps,
  state: InteractStateType,
  run: RoutineRun,
  unit: { from: number; to: number },
  pending: PendingAction,
  page: PageState,
): InteractStateUpdate {
  const label = stepLabel(run, unit);
  const expect = expectOf(run, unit.to);
  const outcome = check(run, expect, pending, page);
  const last = unit.to === run.routine.steps.length - 1;
  if (outcome.verified) {
    const result = verdict(true, `${label}: as when the routine was saved`, last);
    return {
      ...recorded(state, pending, page, result),
      ...movedOn(state, run, unit.to + 1, { healsInRow: 0 }),
    };
  }
  const result = verdict(false, `${label}: ${outcome.reason}`, false);
  // Some of a chain ran: the page is part-way through the unit, which the model now finishes.
  const partial = pending.chain !== null && page.lastExecutedActionIndex !== null;
  const sent = page.lastActionStatus !== 'failure' || partial;
  // A unit that ran but did not show its outcome (a dialog now asks first) is done as far as
  // the model's history goes: the heal is what comes after it, not a redo.
  const base = recorded(state, pending, page, result, sent && page.lastActionStatus !== 'failure');
  if (offRoute(expect, pending, page))
    return {
      ...base,
      ...fallBackUpdate(
        deps,
        state,
        run,
        `the page is not the one the routine expects: ${outcome.reason}`,
      ),
    };
  return {
    ...base,
    ...healUpdate(deps, state, run, { step: unit.to, sent, reason: outcome.reason }),
  };
}

/**
 * The model's action for a step the routine could not do. Verified against that step's
 * recorded outcome, the routine goes on after it (and the routine's own action before it, when
 * it ran, is kept as verified: the two together gave the outcome). Null: it did not, and the
 * normal tiers judge it while the full agent takes over.
 */
function healVerdict(
  state: InteractStateType,
  run: RoutineRun,
  heal: NonNullable<RoutineRun['healing']>,
  pending: PendingAction,
  page: PageState,
): InteractStateUpdate | null {
  const expect = expectOf(run, heal.step);
  const outcome = check(run, expect, pending, page);
  if (!outcome.verified) return null;
  const label = stepLabel(run, { from: heal.step, to: heal.step });
  const result = verdict(
    true,
    `${label}, healed: ${pending.thought.split('\n')[0] ?? ''}`.slice(0, 2_000),
    heal.step === run.routine.steps.length - 1,
  );
  const base = recorded(state, pending, page, result);
  // The routine's action before the heal did its part (a dialog the heal then confirmed).
  const trace = (base.routineTrace as RoutineTraceEntry[] | undefined) ?? state.routineTrace;
  if (heal.sent) {
    // The entry just before the heal's own (the last): the routine's action it completed.
    const k = trace.length - 2;
    if (k >= 0 && trace[k]?.source === 'routine_step' && !trace[k]?.verified)
      base.routineTrace = trace.map((e, i) => (i === k ? { ...e, verified: true } : e));
  }
  return {
    ...base,
    ...movedOn(state, run, heal.step + 1, { healed: [...run.healed, heal.step] }),
  };
}

export type RoutineJudgement =
  /** The routine settled it: the whole update. */
  | { settled: InteractStateUpdate }
  /** The normal tiers judge; this goes with their update. */
  | { also: InteractStateUpdate }
  | null;

/** A routine's verdict on the pending action, when a routine runs; null otherwise. */
export function routineVerdict(
  deps: AgentDeps,
  state: InteractStateType,
  pending: PendingAction,
  page: PageState,
): RoutineJudgement {
  const run = state.routineRun;
  if (!replaying(run)) return null;
  if (pending.source === 'routine_step' && run.unit)
    return { settled: unitVerdict(deps, state, run, run.unit, pending, page) };
  if (!run.healing) return null;
  const healed = healVerdict(state, run, run.healing, pending, page);
  if (healed) return { settled: healed };
  const reason = `the model’s action for step ${run.healing.step + 1} did not give its recorded outcome`;
  return { also: { routineRun: fallBack(run, reason) } };
}
