// The action history the prompts show. The spec keeps the last 10 actions raw in the state and
// folds older ones into a summary (docs/specs.md, "rolling summarization"); we keep only their
// count, and render it as one line.
import { safeParseAction, type HierarchicalPlan } from '@tandem/contracts';
import { currentSubTask } from '../engines/sub-tasks';
import type { InteractStateType, InteractStateUpdate, PreviousAction } from '../state';

/** Actions kept raw in the state; older ones are only counted. */
export const RAW_HISTORY = 10;

/** A run this long of the same verb, all verified, in one plan step is shown as one line. */
const MIN_RUN = 3;

/** Rolling summarization: keep the last 10 actions raw, count the older ones. */
export function appendPrevious(
  state: Pick<InteractStateType, 'previousActions' | 'earlierActionCount'>,
  entry: PreviousAction,
): Pick<InteractStateUpdate, 'previousActions' | 'earlierActionCount'> {
  const all = [...state.previousActions, entry];
  if (all.length <= RAW_HISTORY) return { previousActions: all };
  const dropped = all.length - RAW_HISTORY;
  return {
    previousActions: all.slice(dropped),
    earlierActionCount: state.earlierActionCount + dropped,
  };
}

const earlierLine = (count: number): string =>
  count > 0 ? `${count} earlier step${count === 1 ? '' : 's'} completed.` : '';

function verbOf(action: string): string {
  const parsed = safeParseAction(action);
  return parsed.ok ? parsed.action.name : action;
}

/**
 * "Last verification: …" for the action prompt, or '' when the history's latest line already
 * says it (a plain success, with its reason).
 */
export function verificationLine(
  state: Pick<InteractStateType, 'lastVerification' | 'previousActions'>,
): string {
  const v = state.lastVerification;
  if (!v) return '';
  const latest = state.previousActions.at(-1);
  if (
    v.actionSucceeded &&
    !v.taskCompleted &&
    latest?.success === true &&
    latest.reason === v.reason
  )
    return '';
  return `previous action ${v.actionSucceeded ? 'succeeded' : 'failed'}; goal ${v.taskCompleted ? 'achieved' : 'not yet achieved'} (${v.reason})`;
}

function outcomeOf(p: PreviousAction): string {
  return p.success === null
    ? ''
    : p.success
      ? ' (verified)'
      : ` (failed: ${p.reason ?? 'unknown'})`;
}

/** Where the run that starts at `start` ends: the same verified verb in the same plan step. */
function runEnd(actions: readonly PreviousAction[], start: number): number {
  const first = actions[start] as PreviousAction;
  let end = start + 1;
  while (
    end < actions.length &&
    first.success === true &&
    actions[end]?.success === true &&
    actions[end]?.stepIndex === first.stepIndex &&
    verbOf(actions[end]?.action ?? '') === verbOf(first.action)
  )
    end++;
  return end - start < MIN_RUN ? start + 1 : end;
}

/**
 * The history the prompts show. A run of the same verified verb in one plan step (paging
 * through a list, scrolling down a long page) is one line ending with its last action, because
 * ten near-identical lines tell the model nothing the count does not, and on a long extraction
 * they would make every prompt grow with the work done (docs/specs.md, "O(1) context" promises it
 * stays constant). The latest action carries the verifier's reason, so a successful verification
 * needs no line of its own (see `verificationLine`).
 */
export function renderHistory(
  state: Pick<InteractStateType, 'previousActions' | 'earlierActionCount'> &
    Partial<Pick<InteractStateType, 'subTaskNotes' | 'hierarchicalPlan'>>,
): string {
  const actions = state.previousActions;
  // Hierarchical planning resets the history between sub-tasks: a finished sub-task is one
  // line (its contract met), and the current one is named with what it must produce.
  const parts = [...(state.subTaskNotes ?? []), currentSubTaskLine(state.hierarchicalPlan ?? null)];
  const lines: string[] = [];
  for (let start = 0; start < actions.length;) {
    const end = runEnd(actions, start);
    const first = actions[start] as PreviousAction;
    const last = actions[end - 1] as PreviousAction;
    const latest = end === actions.length && last.success === true && last.reason;
    const reason = latest ? `: ${last.reason}` : '';
    lines.push(
      end - start >= MIN_RUN
        ? `- step ${first.stepIndex + 1}: ${verbOf(first.action)} ×${end - start}, all verified; last ${last.action}${reason}`
        : `- step ${first.stepIndex + 1}: ${first.action}${reason ? ` (verified${reason})` : outcomeOf(first)}`,
    );
    start = end;
  }
  return (
    [...parts, earlierLine(state.earlierActionCount), ...lines].filter(Boolean).join('\n') ||
    '(no actions yet)'
  );
}

function currentSubTaskLine(hierarchy: HierarchicalPlan | null): string {
  const task = currentSubTask(hierarchy);
  if (!hierarchy || !task) return '';
  const inputs = task.inputs.length > 0 ? `; inputs: ${task.inputs.join('; ')}` : '';
  const outputs = task.outputs.length > 0 ? `; produce: ${task.outputs.join('; ')}` : '';
  const position = `${hierarchy.currentSubTaskIndex + 1} of ${hierarchy.subTasks.length}`;
  return `Now on sub-task ${position} "${task.name}": ${task.description}${inputs}${outputs}`;
}
