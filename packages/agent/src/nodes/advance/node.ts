// After a verified step: mark it completed and move the plan to the next step. Runs in the
// superstep of the node that routes here (verification, chain_recovery; see graph.ts).
import { safeParseAction, type Plan } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import { stepIntent } from '../../engines/plan-validator';
import { subTaskNote, syncSubTasks } from '../../engines/sub-tasks';
import { nameScore } from '../../engines/target-resolver';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { logFor } from '../node-context';
import { completesStep } from '../pending-action';

export const advance =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const plan = state.plan;
    if (!plan) return { pending: null };
    if (state.pending && (!completesStep(state.pending) || state.pending.contingency)) {
      // Still on the same step: resolve it again against the page the action revealed (or
      // the page a contingency cleared).
      return { pending: null };
    }
    // A chain ended by the form's button also did the plan step that presses it.
    const done = state.currentStepIndex + (pressedNextStep(plan, state) ? 1 : 0);
    // Never run past the last step: if the plan is exhausted without the goal, the model
    // decides (finish, fail or an extra action) from the page.
    const next = Math.min(done + 1, plan.steps.length - 1);
    const steps = plan.steps.map((s) =>
      s.index >= state.currentStepIndex && s.index <= done
        ? { ...s, status: 'completed' as const }
        : s.index === next && next !== done
          ? { ...s, status: 'active' as const }
          : s,
    );
    logFor(deps, state, 'advance').debug('step completed', { step: done, next });
    return {
      plan: { ...plan, steps, currentStepIndex: next },
      currentStepIndex: next,
      pending: null,
      ...(next !== done ? subTaskBoundary(deps, state, next) : {}),
    };
  };

/**
 * Whether the pending chain ended with a click on the button the next plan step names
 * ("Click 'Save'"): the chain sent the form, so that step is done too.
 */
export function pressedNextStep(
  plan: Plan,
  state: Pick<InteractStateType, 'pending' | 'currentStepIndex'>,
): boolean {
  const chain = state.pending?.chain;
  const next = plan.steps[state.currentStepIndex + 1];
  if (!chain || !next || chain.actions.length < 2) return false;
  const last = safeParseAction(chain.actions[chain.actions.length - 1]?.action ?? '');
  if (!last.ok || last.action.name !== 'click') return false;
  const id = last.action.args.id;
  const button = state.pending?.targets.find((t) => t.id === id);
  const intent = stepIntent(next.description);
  return (
    button?.role === 'btn' &&
    intent?.kind === 'click' &&
    nameScore(intent.target, button.name) >= 0.7
  );
}

/**
 * Hierarchical planning: moving into a new sub-task completes the one before (its steps were
 * all verified, its last one against the sub-task's contract) and resets the context — the
 * step history becomes one line per finished sub-task.
 */
export function subTaskBoundary(
  deps: AgentDeps,
  state: InteractStateType,
  next: number,
): InteractStateUpdate {
  const hierarchy = state.hierarchicalPlan;
  if (!hierarchy) return {};
  const synced = syncSubTasks(hierarchy, next);
  if (synced.completed.length === 0) return { hierarchicalPlan: synced.hierarchy };
  const evidence = state.lastVerification?.reason ?? 'all its steps verified';
  const notes = synced.completed.map((task) =>
    subTaskNote(task, hierarchy.subTasks.indexOf(task), evidence),
  );
  logFor(deps, state, 'advance').info('sub-task completed', {
    completed: synced.completed.map((t) => t.name),
    next: synced.hierarchy.subTasks[synced.hierarchy.currentSubTaskIndex]?.name ?? null,
  });
  return {
    hierarchicalPlan: synced.hierarchy,
    subTaskNotes: [...state.subTaskNotes, ...notes],
    previousActions: [],
    earlierActionCount: 0,
    ...(state.lastVerification
      ? { lastVerification: { ...state.lastVerification, subTaskCompleted: true } }
      : {}),
  };
}
