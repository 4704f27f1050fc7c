// `--routines`: each task twice on one server and one tenant (the bench's key: a routine the
// first run saves is the second run's to find), the demo's state reset before each run as
// every run is; the second run with other values where the goal has any. After a base task's
// two runs, its site variants (catalogue/variants.ts), each with values of its own. A variant
// is one change from the page the routine was recorded on, so when one stores a new version
// the routine is deleted and recorded again on the plain site before the next variant runs.
import { writeFileSync } from 'node:fs';
import type { VariantRun } from '../catalogue/index';
import { routineVersions, deleteRoutine } from '../harness/routines-api';
import { progressLine, runMeasured } from '../measure';
import type { Stack } from '../stack';
import type { BenchTask } from '../task';
import type { MeasuredOutcome } from '../usage/nodes';
import {
  pairTargets,
  pairTotals,
  rerunsOf,
  runFigures,
  sameRoutine,
  savedBy,
  variantFigures,
  variantTargets,
  type TaskPair,
  type VariantFigures,
  type VersionView,
} from './figures';
import { pairTable, targetLines, variantTable } from './report';

type Role = 'first' | 'second' | 'variant' | 're-record';

export interface RoutineRun {
  role: Role;
  /** The task's id, or the variant's. */
  id: string;
  goal: string;
  variant: string | null;
  outcome: MeasuredOutcome;
}

export interface RoutinesResult {
  pairs: TaskPair[];
  variants: VariantFigures[];
  /** Every run in order, with the server's full figures. */
  runs: RoutineRun[];
}

/** The base task's routine right now: the newest version of the routine `saved` belongs to. */
const latestOf = (versions: readonly VersionView[], saved: VersionView | null) =>
  saved
    ? (versions.filter(sameRoutine(saved)).sort((a, b) => b.version - a.version)[0] ?? null)
    : null;

export async function runRoutines(
  stack: Stack,
  tasks: readonly BenchTask[],
  variants: readonly VariantRun[],
  timeoutMs: number,
): Promise<RoutinesResult> {
  const runs: RoutineRun[] = [];
  const pairs: TaskPair[] = [];
  const variantRows: VariantFigures[] = [];
  const versions = () => routineVersions(stack.server);

  const run = async (role: Role, id: string, task: BenchTask, variant?: string) => {
    const outcome = await runMeasured(stack, task, timeoutMs, variant ? { variant } : {});
    runs.push({ role, id, goal: task.goal, variant: variant ?? null, outcome });
    console.log(progressLine(`${id} (${role})`, outcome));
    return outcome;
  };

  for (const task of tasks) {
    const first = await run('first', task.id, task);
    const afterFirst = await versions();
    // A first run that changed nothing leaves the version an earlier run saved: still its routine.
    let routine = savedBy(afterFirst, first.taskId);
    const rerunsBefore = rerunsOf(afterFirst, routine);
    const second = await run('second', task.id, { ...task, ...(task.rerun ?? {}) });
    const afterSecond = await versions();
    const secondFigures = runFigures(second);
    routine = latestOf(afterSecond, routine);
    pairs.push({
      id: task.id,
      routine: routine
        ? { id: routine.id, version: routine.version, goalTemplate: routine.goalTemplate }
        : null,
      routineUsed: rerunsOf(afterSecond, routine) > rerunsBefore || secondFigures.routineCalls > 0,
      first: runFigures(first),
      second: secondFigures,
    });

    for (const variant of variants.filter((v) => v.base === task.id)) {
      const before = await versions();
      const current = latestOf(before, routine);
      const outcome = await run(
        'variant',
        variant.id,
        {
          ...task,
          start: variant.start ?? task.start,
          goal: variant.goal,
          script: variant.script,
          check: variant.check,
        },
        variant.variant,
      );
      const after = await versions();
      const stored = current
        ? after.filter((v) => sameRoutine(current)(v) && v.sourceTaskId === outcome.taskId)
        : [];
      variantRows.push(
        variantFigures({
          id: variant.id,
          expect: variant.expect,
          changedSteps: variant.changedSteps,
          run: runFigures(outcome),
          hadRoutine: current !== null,
          newVersion: stored.length > 0,
          reran: rerunsOf(after, current) > rerunsOf(before, current),
        }),
      );
      // The next variant is one change from the plain site, not from this variant's version.
      if (current && latestOf(after, current)?.id !== current.id) {
        await deleteRoutine(stack.server, current.id);
        const again = await run('re-record', task.id, task);
        routine = savedBy(await versions(), again.taskId);
      }
    }
  }
  return { pairs, variants: variantRows, runs };
}

/** Prints the tables and targets; writes them with every run's figures to `json` if given. */
export function routinesOutput(
  result: RoutinesResult,
  variants: readonly VariantRun[],
  model: string,
  json: string | undefined,
) {
  const totals = pairTotals(result.pairs);
  const targets = pairTargets(totals);
  const vTargets =
    result.variants.length > 0 ? variantTargets(result.variants, totals.routinesUsed > 0) : [];
  const changes = new Map(variants.map((v) => [v.id, v.change]));
  const failures = result.runs.filter((r) => !r.outcome.success);
  console.log(
    [
      '',
      `bench/tasks --routines — ${result.pairs.length} tasks run twice, ${result.variants.length} site variants, model: ${model}`,
      '',
      pairTable(result.pairs, totals),
      '',
      ...(result.variants.length > 0 ? [variantTable(result.variants, changes), ''] : []),
      ...targetLines([...targets, ...vTargets]),
      ...(failures.length > 0
        ? ['', 'failed:', ...failures.map((r) => `  ${r.id} (${r.role}): ${r.outcome.detail}`)]
        : []),
    ].join('\n'),
  );
  if (json) {
    const runs = result.runs.map(({ outcome: { task: _task, ...rest }, ...run }) => ({
      ...run,
      ...rest,
    }));
    writeFileSync(
      json,
      JSON.stringify(
        {
          model,
          mode: 'routines',
          summary: { totals, targets, variantTargets: vTargets },
          pairs: result.pairs,
          variants: result.variants.map((v) => ({ ...v, change: changes.get(v.id) ?? '' })),
          runs,
        },
        null,
        2,
      ),
    );
  }
}
