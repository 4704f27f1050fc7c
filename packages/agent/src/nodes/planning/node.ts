// COMPLEX path, step 3 (docs/specs.md, "planning"): a step-by-step plan before the first action.
import type { PlanStep } from '@tandem/contracts';
import type { z } from 'zod';
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
    const hierarchicalPlan = buildHierarchy(
      result.output.steps.map((s, index) => ({ index, subTaskName: s.subTask })),
      result.output.subTasks,
    );
    const steps = labelSteps(toPlanSteps(result.output.steps, 0), hierarchicalPlan);
    logFor(deps, state, 'planning').info('planned', {
      steps: steps.length,
      subTasks: hierarchicalPlan?.subTasks.length ?? 0,
      goal: result.output.goal,
    });
    return {
      plan: {
        goal: result.output.goal,
        steps,
        currentStepIndex: 0,
        createdAt: new Date().toISOString(),
      },
      currentStepIndex: 0,
      hierarchicalPlan,
      tokens: withUsage(state, result),
    };
  };

/** The planner's steps as plan steps from `first` on, the first of them active. */
export function toPlanSteps(
  steps: z.infer<typeof PlanningOutput>['steps'],
  first: number,
): PlanStep[] {
  return steps.map((s, i) => ({
    index: first + i,
    description: s.description,
    refinable: s.refinable,
    status: i === 0 ? ('active' as const) : ('pending' as const),
    ...(s.contingencies?.length ? { contingencies: s.contingencies } : {}),
  }));
}
