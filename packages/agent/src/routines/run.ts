// A routine being rerun: which saved version, with which values, how far it got, which steps
// the model healed and why it handed over to the full agent. Plain JSON in the checkpointed
// state, like everything else there; the routine is copied in whole when the run starts, so an
// admin editing or deleting it mid-task cannot change the steps under a running task.
import type { Routine, RoutineRunInfo, RoutineStep } from '@tandem/contracts';
import type { InteractStateType } from '../state';

/** Heals in a row after which the routine stops and the full agent goes on. */
export const MAX_HEALS_IN_ROW = 2;

export interface RoutineRun {
  routine: Routine;
  values: Record<string, string>;
  /** The first routine step not yet done. */
  next: number;
  /** The routine steps the pending unit sends (a chain: several); null between units. */
  unit: { from: number; to: number } | null;
  /**
   * For an `extract` unit: the trace's length when its read was asked, so only an entry the
   * extraction added after it can settle the read.
   */
  readAt?: number;
  /**
   * The routine step the model is doing now (its target was not found, or its outcome did not
   * show); `sent`: the routine's own action ran first (a dialog appeared after Save).
   */
  healing: { step: number; sent: boolean; reason: string } | null;
  /** Heals without a step replayed cleanly in between. */
  healsInRow: number;
  /** Routine steps the model healed in this run. */
  healed: number[];
  /** Routine steps skipped: they only cleared the way in the first run, and nothing was there. */
  skipped: number[];
  /**
   * Routine steps found without the model but not as recorded (a renamed button found by its
   * neighbour, a moved field): the run is saved as the next version, which records them anew.
   */
  stale: number[];
  /** The task's model calls and tokens when the routine started: what it spent since. */
  callsAtStart: number;
  tokensAtStart: number;
  /** Why the routine stopped and the full agent took over; null while it runs. */
  fellBack: string | null;
  /**
   * What the HTML of the routine's last read showed leads on past it (a link to its next page):
   * the list goes on even where the element it paged with is not found by its name (leads-on.ts).
   */
  onward?: string;
}

export function startRun(
  routine: Routine,
  values: Record<string, string>,
  tokens: InteractStateType['tokens'],
): RoutineRun {
  return {
    routine,
    values,
    next: 0,
    unit: null,
    healing: null,
    healsInRow: 0,
    healed: [],
    skipped: [],
    stale: [],
    callsAtStart: tokens.calls,
    tokensAtStart: tokens.input + tokens.output,
    fellBack: null,
  };
}

/** The routine runs its own steps (not handed over to the full agent). */
export const replaying = (
  run: RoutineRun | null | undefined,
): run is RoutineRun & { fellBack: null } => !!run && run.fellBack === null;

/**
 * The steps sent together from `from`: the step and those chained after it, up to the one that
 * ends the chain (the step whose outcome the first run verified).
 */
export function unitFrom(
  steps: readonly RoutineStep[],
  from: number,
): { from: number; to: number } {
  let to = from;
  while (to < steps.length - 1 && steps[to]?.chained) to++;
  return { from, to };
}

/** The run stopped: the full agent goes on from here, with the routine's steps in its history. */
export function fallBack(run: RoutineRun, reason: string): RoutineRun {
  return { ...run, unit: null, healing: null, fellBack: reason };
}

/** What the response tells the live view. */
export function runInfo(
  run: RoutineRun,
  tokens: Pick<InteractStateType['tokens'], 'calls'>,
): RoutineRunInfo {
  return {
    routineId: run.routine.id,
    name: run.routine.name,
    version: run.routine.version,
    savedAt: run.routine.createdAt,
    done: Math.min(run.next, run.routine.steps.length),
    steps: run.routine.steps.length,
    modelCalls: Math.max(0, tokens.calls - run.callsAtStart),
    healed: run.healed,
    fellBack: run.fellBack,
  };
}

/**
 * "Routine step 3 of 5": how the routine's steps read in thoughts, verdicts and history (the
 * live view's banner names the routine once).
 */
export function stepLabel(run: RoutineRun, unit: { from: number; to: number }): string {
  const total = run.routine.steps.length;
  const steps =
    unit.from === unit.to ? `step ${unit.from + 1}` : `steps ${unit.from + 1}–${unit.to + 1}`;
  return `Routine ${steps} of ${total}`;
}
