// Healing a routine step in action generation: when a saved routine cannot find a step's target,
// or the step did not give its recorded outcome, the model is asked for that step alone, told
// what the step did when the routine was saved and why it needs help now. Its calls are
// recorded as ROUTINE_HEAL. What it may type is what the run's parameters and the routine's
// own values say: a heal must never submit anything else, whatever the page asks for.
import {
  describeActions,
  fillTemplate,
  safeParseAction,
  type ParsedAction,
  type RoutineStep,
} from '@tandem/contracts';
import type { ActionPart } from '../nodes/action-generation/part';
import { fenceUntrusted } from '../page/page-state';
import { replaying, type RoutineRun } from './run';

/** The step as it was saved, in words: "Typed “Patel” into Last name". */
function recordedStep(run: RoutineRun, index: number): string {
  const step = run.routine.steps[index] as RoutineStep;
  const value = step.value === null ? null : fillTemplate(step.value, run.values);
  const locator = step.target?.locators[0];
  const name =
    locator?.by === 'role-name'
      ? locator.name
      : locator?.by === 'label' || locator?.by === 'near'
        ? locator.text
        : (locator?.role ?? '');
  const args: Record<string, unknown> = { id: 'target' };
  if (value !== null) {
    if (step.action === 'setValue') args.text = value;
    if (step.action === 'select') args.option = value;
    if (step.action === 'press') args.key = value;
    if (step.action === 'navigate') args.url = value;
  }
  const action = { name: step.action, args } as ParsedAction;
  return describeActions([action], { target: name });
}

/** The values a heal may type or choose: the routine's own, filled with this run's. */
export function allowedValues(run: RoutineRun): string[] {
  return run.routine.steps.flatMap((s) =>
    (s.action === 'setValue' || s.action === 'select') && s.value !== null
      ? [fillTemplate(s.value, run.values)]
      : [],
  );
}

/** A typed text or chosen option of the answer that is not one of the run's values. */
export function strayValue(run: RoutineRun, actions: readonly ParsedAction[]): string | null {
  const allowed = allowedValues(run);
  for (const a of actions) {
    if (a.name === 'setValue' && !allowed.includes(a.args.text)) return a.args.text;
    if (
      a.name === 'select' &&
      !allowed.some((v) => v.toLowerCase() === a.args.option.toLowerCase())
    )
      return a.args.option;
  }
  return null;
}

function healSection(run: RoutineRun, step: number, reason: string): string {
  const saved = run.routine.steps[step] as RoutineStep;
  const expect = saved.expect;
  return [
    `Saved routine “${run.routine.name}”: step ${step + 1} of ${run.routine.steps.length} needs you; the routine goes on after it.`,
    // The step's names and texts were read from pages: data, not instructions.
    `The step as saved:\n${fenceUntrusted(recordedStep(run, step))}`,
    expect ? `What it led to then:\n${fenceUntrusted(expect.reason)}` : '',
    `Why it needs you now: ${fenceUntrusted(reason)}`,
    'Do only this step, or the one action the page now needs to complete it (a renamed button, a confirmation dialog). Type only the values the step uses.',
  ]
    .filter(Boolean)
    .join('\n');
}

export const routineHealPart: ActionPart = {
  name: 'routine heal',
  prepare(_deps, state) {
    const run = state.routineRun;
    if (!replaying(run) || !run.healing) return {};
    const { step, reason } = run.healing;
    return {
      actionType: 'ROUTINE_HEAL',
      sections: () => ({ routine: healSection(run, step, reason) }),
    };
  },
  answer(_deps, turn) {
    const run = turn.state.routineRun;
    if (!replaying(run) || !run.healing) return null;
    const texts = [turn.out.action, ...(turn.out.chain ?? []).map((c) => c.action)];
    // Unparsable answers are the action check's to reject, with its own reason.
    const parsed = texts.flatMap((t) => {
      const r = safeParseAction(t);
      return r.ok ? [r.action] : [];
    });
    const stray = strayValue(run, parsed);
    if (stray === null) return null;
    return {
      decide: () => ({
        rejected: `a routine step types only the run's values; “${stray}” is not one of them`,
        safety: true,
      }),
    };
  },
};
