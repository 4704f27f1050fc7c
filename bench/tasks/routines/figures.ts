// The routines mode's figures, computed from what the server recorded of each run: a task's
// first run (the full agent; it may save a routine) against its second (which should rerun the
// routine without the model), and each site variant's run. Pure, so the ratios the targets
// read are unit-tested.
import type { TaskRecord } from '../harness/records';
import type { Target } from '../report';

/** What a run's figures are read from: a TaskOutcome has these fields. */
export interface RunSource {
  success: boolean;
  wallMs: number;
  record: Pick<TaskRecord, 'llmCalls' | 'steps' | 'tokens' | 'nodes'> | null;
}

export interface RunFigures {
  success: boolean;
  /** Model calls of the run, every action type (0 when the server kept no record). */
  calls: number;
  /** Of those, the calls a routine rerun made (action types ROUTINE_RERUN and ROUTINE_HEAL). */
  routineCalls: number;
  steps: number;
  /** calls / steps; null with no step. */
  callsPerStep: number | null;
  tokens: number;
  wallMs: number;
}

/** The usage log's action types of a routine rerun's calls. */
export const ROUTINE_ACTION_TYPES: readonly string[] = ['ROUTINE_RERUN', 'ROUTINE_HEAL'];

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

export function runFigures(run: RunSource): RunFigures {
  const record = run.record;
  const calls = record?.llmCalls ?? 0;
  const steps = record?.steps ?? 0;
  return {
    success: run.success,
    calls,
    routineCalls: sum(
      (record?.nodes ?? [])
        .filter((n) => ROUTINE_ACTION_TYPES.includes(n.actionType))
        .map((n) => n.calls),
    ),
    steps,
    callsPerStep: ratio(calls, steps),
    tokens: record?.tokens ?? 0,
    wallMs: run.wallMs,
  };
}

/** A stored routine version, as far as the mode reads it (GET /api/routines' rows). */
export interface VersionView {
  id: string;
  site: string;
  goalTemplate: string;
  version: number;
  sourceTaskId: string | null;
  runs: number;
}

/** Versions of the same routine: one site and goal template. */
export const sameRoutine = (a: Pick<VersionView, 'site' | 'goalTemplate'>) => (b: VersionView) =>
  a.site === b.site && a.goalTemplate === b.goalTemplate;

/** The version a task saved (its source task), if any. */
export const savedBy = (versions: readonly VersionView[], taskId: string | null) =>
  taskId ? (versions.find((v) => v.sourceTaskId === taskId) ?? null) : null;

/** Reruns counted on every version of `routine`: a rise between two reads means one ran. */
export const rerunsOf = (versions: readonly VersionView[], routine: VersionView | null) =>
  routine ? sum(versions.filter(sameRoutine(routine)).map((v) => v.runs)) : 0;

export interface TaskPair {
  id: string;
  /** The routine version the first run saved, or the one it left unchanged; null: none. */
  routine: { id: string; version: number; goalTemplate: string } | null;
  /** The second run reran a routine: its run counter rose, or it logged routine calls. */
  routineUsed: boolean;
  first: RunFigures;
  second: RunFigures;
}

export interface RunTotals {
  succeeded: number;
  calls: number;
  steps: number;
  callsPerStep: number | null;
  tokens: number;
  wallMs: number;
}

export interface PairTotals {
  tasks: number;
  /** First runs after which the task has a routine. */
  routinesSaved: number;
  /** Second runs that reran one. */
  routinesUsed: number;
  first: RunTotals;
  second: RunTotals;
  /** Σ second-run tokens ÷ Σ first-run tokens. */
  tokenRatio: number | null;
  /** Σ second-run wall time ÷ Σ first-run wall time. */
  wallRatio: number | null;
}

function runTotals(runs: readonly RunFigures[]): RunTotals {
  const calls = sum(runs.map((r) => r.calls));
  const steps = sum(runs.map((r) => r.steps));
  return {
    succeeded: runs.filter((r) => r.success).length,
    calls,
    steps,
    callsPerStep: ratio(calls, steps),
    tokens: sum(runs.map((r) => r.tokens)),
    wallMs: sum(runs.map((r) => r.wallMs)),
  };
}

export function pairTotals(pairs: readonly TaskPair[]): PairTotals {
  const first = runTotals(pairs.map((p) => p.first));
  const second = runTotals(pairs.map((p) => p.second));
  return {
    tasks: pairs.length,
    routinesSaved: pairs.filter((p) => p.routine !== null).length,
    routinesUsed: pairs.filter((p) => p.routineUsed).length,
    first,
    second,
    tokenRatio: ratio(second.tokens, first.tokens),
    wallRatio: ratio(second.wallMs, first.wallMs),
  };
}

const fixed = (n: number | null, digits = 2) => (n === null ? 'n/a' : n.toFixed(digits));
const pct = (n: number | null) => (n === null ? 'n/a' : `${(n * 100).toFixed(1)} %`);

/** The second runs' targets: all succeed, ≤ 0.05 calls per step, ≤ 3 % tokens, ≤ 0.5× wall. */
export function pairTargets(totals: PairTotals): Target[] {
  const { second, tokenRatio, wallRatio } = totals;
  return [
    {
      name: 'second runs succeeded',
      value: `${second.succeeded}/${totals.tasks}`,
      target: 'all',
      met: second.succeeded === totals.tasks,
    },
    {
      name: 'second runs: model calls per step',
      value: fixed(second.callsPerStep),
      target: '≤ 0.05',
      met: second.callsPerStep !== null && second.callsPerStep <= 0.05,
    },
    {
      name: "second runs' tokens ÷ first runs'",
      value: pct(tokenRatio),
      target: '≤ 3 %',
      met: tokenRatio !== null && tokenRatio <= 0.03,
    },
    {
      name: "second runs' wall time ÷ first runs'",
      value: wallRatio === null ? 'n/a' : `${wallRatio.toFixed(2)}×`,
      target: '≤ 0.5×',
      met: wallRatio !== null && wallRatio <= 0.5,
    },
  ];
}

export interface VariantInput {
  id: string;
  expect: 'heal' | 'decline';
  changedSteps: number;
  run: RunFigures;
  /** The base task had a routine when the variant ran. */
  hadRoutine: boolean;
  /** The variant's run stored a version of the base's routine. */
  newVersion: boolean;
  /** The routine's run counter rose during the variant's run. */
  reran: boolean;
}

export interface VariantFigures extends VariantInput {
  /** Calls outside the routine action types: the full agent's. */
  agentCalls: number;
  /** Model calls ÷ changed steps (heal variants). */
  callsPerChangedStep: number | null;
  /** The routine was not used and the full agent did the goal (decline variants). */
  declined: boolean | null;
  /** The variant's own target: healed within budget with a new version, or declined. */
  met: boolean;
}

export function variantFigures(input: VariantInput): VariantFigures {
  const { run } = input;
  const agentCalls = run.calls - run.routineCalls;
  if (input.expect === 'decline') {
    const declined = run.routineCalls === 0 && !input.reran && agentCalls > 0;
    return {
      ...input,
      agentCalls,
      callsPerChangedStep: null,
      declined,
      met: run.success && declined,
    };
  }
  const callsPerChangedStep = ratio(run.calls, input.changedSteps);
  return {
    ...input,
    agentCalls,
    callsPerChangedStep,
    declined: null,
    met:
      run.success && input.newVersion && callsPerChangedStep !== null && callsPerChangedStep <= 1,
  };
}

/**
 * Every heal variant within budget with a new version; the changed meaning declined. A decline
 * only shows something when routines do rerun (`rerunsSeen`: some second run reran one): where
 * none ever reruns, every goal "declines".
 */
export function variantTargets(variants: readonly VariantFigures[], rerunsSeen: boolean): Target[] {
  const heals = variants.filter((v) => v.expect === 'heal');
  const declines = variants.filter((v) => v.expect === 'decline');
  const healedCalls = sum(heals.map((v) => v.run.calls));
  const changed = sum(heals.map((v) => v.changedSteps));
  return [
    {
      name: 'one-change variants: succeeded, ≤ 1 model call per changed step, new version',
      value: `${heals.filter((v) => v.met).length}/${heals.length} (${fixed(ratio(healedCalls, changed))} calls per changed step)`,
      target: 'all',
      met: heals.length > 0 && heals.every((v) => v.met),
    },
    {
      name: 'changed meaning: routine declined, full agent succeeded',
      value: `${declines.filter((v) => v.met).length}/${declines.length}${rerunsSeen ? '' : ' (no second run reran a routine: a decline proves nothing)'}`,
      target: 'all',
      met: rerunsSeen && declines.length > 0 && declines.every((v) => v.met),
    },
  ];
}
