// COMPLEX path, step 3 (docs/specs.md, "planning"): a step-by-step plan before the first action.
import type { PlanStep } from '@tandem/contracts';
import type { AgentDeps } from '../../deps';
import { buildHierarchy, labelSteps } from '../../engines/sub-tasks';
import type { InteractStateType, InteractStateUpdate } from '../../state';
import { llmContext, logFor, withUsage } from '../node-context';
import { PlanningOutput, planningPrompt, planningSystem } from './prompt';

export const planning =
  (deps: AgentDeps) =>
  async (state: InteractStateType): Promise<InteractStateUpdate> => {
    const page = state.page;
    if (!page) throw new Error('planning needs the page state');
    // Context analysis wrote the plan in its own call: nothing to ask.
    if (state.draftPlan) return planned(deps, state, state.draftPlan, state.tokens);
    const result = await deps.llm.generate({
      node: 'planning',
      actionType: 'PLANNING',
      system: planningSystem,
      prompt: planningPrompt({
        query: state.query,
        page,
        conversation: state.conversation,
        rag: state.ragContext.text,
        web: state.webSearchSummary,
        requiredSources: state.requiredSources,
      }),
      schema: PlanningOutput,
      schemaName: 'plan',
      context: llmContext(state),
    });
    return planned(deps, state, result.output, withUsage(state, result));
  };

/** The task's plan from the planner's answer (this node's call, or context analysis'). */
function planned(
  deps: AgentDeps,
  state: InteractStateType,
  output: PlanningOutput,
  tokens: InteractStateType['tokens'],
): InteractStateUpdate {
  const hierarchicalPlan = buildHierarchy(
    output.steps.map((s, index) => ({ index, subTaskName: s.subTask })),
    output.subTasks,
  );
  const steps = labelSteps(toPlanSteps(output.steps, 0), hierarchicalPlan);
  logFor(deps, state, 'planning').info('planned', {
    steps: steps.length,
    subTasks: hierarchicalPlan?.subTasks.length ?? 0,
    goal: output.goal,
    ...(state.draftPlan ? { by: 'context_analysis' } : {}),
  });
  return {
    plan: {
      goal: output.goal,
      steps,
      currentStepIndex: 0,
      createdAt: new Date().toISOString(),
      ...(output.answer ? { answer: output.answer } : {}),
    },
    currentStepIndex: 0,
    hierarchicalPlan,
    draftPlan: null,
    tokens,
  };
}

/** The planner's steps as plan steps from `first` on, the first of them active. */
export function toPlanSteps(steps: PlanningOutput['steps'], first: number): PlanStep[] {
  return steps.map((s, i) => ({
    index: first + i,
    description: s.description,
    refinable: s.refinable,
    status: i === 0 ? ('active' as const) : ('pending' as const),
    ...(s.contingencies?.length ? { contingencies: s.contingencies } : {}),
    ...(s.expect ? { expect: s.expect } : {}),
  }));
}
