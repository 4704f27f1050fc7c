// Dynamic re-planning (docs/specs.md, "dynamic re-planning", "Plan Health Check"). Dispatch flags a
// changed page (URL path, or DOM similarity < 70%); after the step is advanced this node asks
// the deterministic plan validator whether the rest of the plan still fits: continue (nothing
// to do, no model), modify (skip the steps whose targets this page no longer has, up to the
// first one it does: no model), or regenerate (the planner plans the remaining steps from this
// page: one call, action type REPLANNING). See docs/planner.md.
import type { Plan, PlanStep } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import { validatePlan } from '../../engines/plan-validator';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { llmContext, logFor, withUsage } from '../node-context';
import { absorbRest, labelSteps } from '../../engines/sub-tasks';
import { subTaskBoundary } from '../advance/node';
import { toPlanSteps } from '../planning/node';
import { PlanningOutput } from '../planning/prompt';
import { replanningPrompt, replanningSystem } from './prompt';

export const replanning =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const { replanSignal: signal, plan, page } = state;
    if (!signal || !plan || !page) return { replanSignal: null };
    const check = (index: number) =>
      validatePlan({
        plan,
        currentStepIndex: index,
        tree: page.tree,
        url: page.url,
        trigger: signal.reason,
      });
    const validation = check(state.currentStepIndex);
    logFor(deps, state, 'replanning').info('plan checked', {
      trigger: signal.reason,
      similarity: Number(signal.similarity.toFixed(3)),
      verdict: validation.verdict,
      missing: validation.missingTargets,
    });
    if (validation.verdict === 'continue') return { replanSignal: null };
    const replanned = { replanSignal: null, rePlanning: true, replanCount: state.replanCount + 1 };
    if (validation.verdict === 'modify') {
      const next = plan.steps.findIndex(
        (step) => step.index > state.currentStepIndex && check(step.index).verdict === 'continue',
      );
      if (next >= 0) {
        // Skipping may pass a sub-task's end: the page moved past it, so it closes as well.
        const skipped = skipTo(plan, state.currentStepIndex, next);
        return { ...replanned, ...skipped, ...subTaskBoundary(deps, state, next) };
      }
    }
    return { ...replanned, ...(await regenerate(deps, state, plan, validation.reason)) };
  };

/** The steps from `from` up to `to` are skipped: this page already moved past them. */
function skipTo(plan: Plan, from: number, to: number): InteractStateUpdate {
  const steps = plan.steps.map((step): PlanStep => {
    if (step.index >= from && step.index < to) return { ...step, status: 'skipped' };
    if (step.index === to) return { ...step, status: 'active' };
    return step;
  });
  return { plan: { ...plan, steps, currentStepIndex: to }, currentStepIndex: to };
}

/** The planner plans the rest from this page; the steps done so far are kept as they were. */
async function regenerate(
  deps: AgentDeps,
  state: InteractStateType,
  plan: Plan,
  reason: string,
): Promise<InteractStateUpdate> {
  const page = state.page;
  if (!page) return {};
  const doneSteps = state.currentStepIndex;
  const result = await deps.llm.generate({
    node: 'replanning',
    actionType: 'REPLANNING',
    system: replanningSystem,
    prompt: replanningPrompt({
      query: state.query,
      page,
      plan,
      doneSteps,
      reason,
      conversation: state.conversation,
      rag: state.ragContext.text,
      web: state.webSearchSummary,
    }),
    schema: PlanningOutput,
    schemaName: 'plan',
    context: llmContext(state),
  });
  const fresh = toPlanSteps(result.output.steps, doneSteps);
  // The new steps finish the current sub-task and whatever the later ones promised.
  const hierarchicalPlan = state.hierarchicalPlan
    ? absorbRest(
        state.hierarchicalPlan,
        fresh.map((s) => s.index),
      )
    : null;
  const steps = labelSteps([...plan.steps.slice(0, doneSteps), ...fresh], hierarchicalPlan);
  logFor(deps, state, 'replanning').info('plan regenerated', { steps: steps.length });
  return {
    ...(hierarchicalPlan ? { hierarchicalPlan } : {}),
    plan: { ...plan, steps, currentStepIndex: doneSteps },
    currentStepIndex: doneSteps,
    tokens: withUsage(state, result),
  };
}
