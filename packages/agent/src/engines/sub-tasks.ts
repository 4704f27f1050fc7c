// Hierarchical planning (docs/specs.md, "conditional and hierarchical planning", manager–worker): a
// long goal ("add the patient, book a visit, then send the note") is planned as sub-tasks, each a
// contiguous run of plan steps with an input/output contract. When a sub-task's last step is
// verified the sub-task is done: its contract becomes one line of context and the step-by-step
// history is reset, so the next sub-task's prompts start small instead of carrying every action
// before them. Pure functions over contracts' HierarchicalPlan; the planning, advance and
// verification nodes call them.
import type { HierarchicalPlan, PlanStep, SubTask } from '@tandem/contracts';

/** What the planner writes for a sub-task; its steps name it by `name`. */
export interface SubTaskDraft {
  name: string;
  description: string;
  inputs?: string[] | null;
  outputs?: string[] | null;
}

/**
 * The hierarchy for planned steps whose `subTask` names a drafted sub-task. Null (a flat plan)
 * unless there are two or more sub-tasks, every step belongs to one, and each sub-task's steps
 * are contiguous: a plan that jumps between parts has no boundary to reset context at.
 */
export function buildHierarchy(
  steps: readonly { index: number; subTaskName?: string | null }[],
  drafts: readonly SubTaskDraft[] | null | undefined,
): HierarchicalPlan | null {
  if (!drafts || drafts.length < 2) return null;
  const order: string[] = [];
  for (const step of steps) {
    const name = step.subTaskName;
    if (!name || !drafts.some((d) => d.name === name)) return null;
    if (order.at(-1) !== name) {
      if (order.includes(name)) return null;
      order.push(name);
    }
  }
  if (order.length < 2) return null;
  const subTasks: SubTask[] = order.map((name, i) => {
    const draft = drafts.find((d) => d.name === name) as SubTaskDraft;
    return {
      id: `sub-${i + 1}`,
      name,
      description: draft.description,
      inputs: draft.inputs ?? [],
      outputs: draft.outputs ?? [],
      status: i === 0 ? 'active' : 'pending',
      stepIndexes: steps.filter((s) => s.subTaskName === name).map((s) => s.index),
    };
  });
  return { subTasks, currentSubTaskIndex: 0 };
}

/** The plan steps labelled with their sub-task, for every view of the plan. */
export function labelSteps(steps: PlanStep[], hierarchy: HierarchicalPlan | null): PlanStep[] {
  if (!hierarchy) return steps;
  return steps.map((step) => {
    const index = hierarchy.subTasks.findIndex((t) => t.stepIndexes.includes(step.index));
    const task = hierarchy.subTasks[index];
    return task ? { ...step, subTask: { index, name: task.name } } : step;
  });
}

export function currentSubTask(hierarchy: HierarchicalPlan | null): SubTask | null {
  return hierarchy?.subTasks[hierarchy.currentSubTaskIndex] ?? null;
}

/** Whether the step is the last one of the current sub-task and another sub-task follows. */
export function endsSubTask(hierarchy: HierarchicalPlan | null, stepIndex: number): boolean {
  const task = currentSubTask(hierarchy);
  if (!hierarchy || !task) return false;
  const isLast = Math.max(...task.stepIndexes) === stepIndex;
  return isLast && hierarchy.currentSubTaskIndex < hierarchy.subTasks.length - 1;
}

/** The goal a sub-task's verification judges: its description and its promised outputs. */
export function subTaskGoal(task: SubTask, position: number, total: number): string {
  const outputs = task.outputs.length > 0 ? ` It must produce: ${task.outputs.join('; ')}.` : '';
  return `Sub-task ${position + 1} of ${total}, "${task.name}": ${task.description}.${outputs}`;
}

/**
 * The hierarchy once the plan is at `stepIndex`: every sub-task whose steps all lie before it
 * is completed, the one holding it is active. Returns the sub-tasks completed by this move.
 */
export function syncSubTasks(
  hierarchy: HierarchicalPlan,
  stepIndex: number,
): { hierarchy: HierarchicalPlan; completed: SubTask[] } {
  const completed: SubTask[] = [];
  let current = hierarchy.currentSubTaskIndex;
  const subTasks = hierarchy.subTasks.map((task, i) => {
    const done = task.stepIndexes.every((s) => s < stepIndex);
    if (done && task.status !== 'completed') {
      completed.push(task);
      return { ...task, status: 'completed' as const };
    }
    if (!done && task.stepIndexes.includes(stepIndex)) {
      current = i;
      return task.status === 'pending' ? { ...task, status: 'active' as const } : task;
    }
    return task;
  });
  return { hierarchy: { subTasks, currentSubTaskIndex: current }, completed };
}

/** The context line a finished sub-task leaves behind when its actions are dropped. */
export function subTaskNote(task: SubTask, position: number, evidence: string): string {
  const outputs = task.outputs.length > 0 ? `; outputs: ${task.outputs.join('; ')}` : '';
  return `Sub-task ${position + 1} "${task.name}" completed (${evidence})${outputs}.`;
}

/**
 * Re-planning replaced the rest of the plan: the new steps all belong to the current sub-task,
 * which takes over what the later ones promised (their steps are gone).
 */
export function absorbRest(
  hierarchy: HierarchicalPlan,
  newStepIndexes: number[],
): HierarchicalPlan {
  const at = hierarchy.currentSubTaskIndex;
  const rest = hierarchy.subTasks.slice(at + 1);
  const current = hierarchy.subTasks[at];
  if (!current) return hierarchy;
  const merged: SubTask = {
    ...current,
    description: [current.description, ...rest.map((t) => t.description)].join('; then '),
    outputs: [...current.outputs, ...rest.flatMap((t) => t.outputs)],
    stepIndexes: [
      ...current.stepIndexes.filter((s) => s < Math.min(...newStepIndexes)),
      ...newStepIndexes,
    ],
  };
  return { subTasks: [...hierarchy.subTasks.slice(0, at), merged], currentSubTaskIndex: at };
}
