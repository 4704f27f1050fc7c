// The goal catalogue of bench/tasks: every task, in the order the table lists them.
import type { Script } from '@tandem/agent/testing/model-double';
import type { BenchTask } from '../task';
import { DATA_TASKS } from './data';
import { FORM_TASKS } from './forms';
import { NAVIGATION_TASKS } from './navigation';
import { VARIANT_RUNS } from './variants';
import { WIDGET_TASKS } from './widgets';

export const BENCH_TASKS: readonly BenchTask[] = [
  ...FORM_TASKS,
  ...NAVIGATION_TASKS,
  ...WIDGET_TASKS,
  ...DATA_TASKS,
];

export { VARIANT_RUNS, type VariantRun } from './variants';

// The table knows a task by its id.
const ids = new Set<string>();
for (const task of BENCH_TASKS) {
  if (ids.has(task.id)) throw new Error(`two bench tasks share the id "${task.id}"`);
  ids.add(task.id);
}

/**
 * Every goal the scripted model may be asked, with its script: the tasks', their second runs'
 * and the variants'. The model recognises a goal by its text, so no two may share it.
 */
const SCRIPTS = new Map<string, Script>();
for (const { goal, script } of [
  ...BENCH_TASKS,
  ...BENCH_TASKS.flatMap((task) => (task.rerun ? [task.rerun] : [])),
  ...VARIANT_RUNS,
]) {
  if (SCRIPTS.has(goal)) throw new Error(`two bench goals read "${goal}"`);
  SCRIPTS.set(goal, script);
}

/** The task whose goal is exactly `goal`, if any. */
export const taskByGoal = (goal: string): BenchTask | undefined =>
  BENCH_TASKS.find((task) => task.goal === goal.trim());

/** The script of any catalogue goal (a task's, its second run's, a variant's). */
export const scriptByGoal = (goal: string): Script | undefined => SCRIPTS.get(goal.trim());
