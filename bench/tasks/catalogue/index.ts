// The goal catalogue of bench/tasks: every task, in the order the table lists them.
import type { BenchTask } from '../task';
import { DATA_TASKS } from './data';
import { FORM_TASKS } from './forms';
import { NAVIGATION_TASKS } from './navigation';
import { WIDGET_TASKS } from './widgets';

export const BENCH_TASKS: readonly BenchTask[] = [
  ...FORM_TASKS,
  ...NAVIGATION_TASKS,
  ...WIDGET_TASKS,
  ...DATA_TASKS,
];

// The scripted model recognises a task by its goal, and the table by its id.
for (const key of ['id', 'goal'] as const) {
  const seen = new Set<string>();
  for (const task of BENCH_TASKS) {
    if (seen.has(task[key])) throw new Error(`two bench tasks share the ${key} "${task[key]}"`);
    seen.add(task[key]);
  }
}

/** The task whose goal is exactly `goal`, if any. */
export const taskByGoal = (goal: string): BenchTask | undefined =>
  BENCH_TASKS.find((task) => task.goal === goal.trim());
