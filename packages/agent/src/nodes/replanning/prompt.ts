// The re-planning prompt: the planner's own system prompt (one way to plan), told what was
// done and that the page changed, asked for the remaining steps only.
import type { Plan } from '@tandem/contracts';
import type { PageState } from '../../page/page-state';
import { planningPrompt, planningSystem } from '../planning/prompt';

export const replanningSystem = [
  planningSystem,
  'The plan is being revised: the page changed and the remaining steps no longer fit it. Plan only the steps still needed from the current page; do not repeat steps already done.',
].join('\n');

export function replanningPrompt(input: {
  query: string;
  page: PageState;
  plan: Plan;
  doneSteps: number;
  reason: string;
  conversation: string;
  rag: string;
  web: string | null;
}): string {
  const done = input.plan.steps
    .slice(0, input.doneSteps)
    .map((step) => `${step.index + 1}. ${step.description} [${step.status}]`)
    .join('\n');
  const left = input.plan.steps
    .slice(input.doneSteps)
    .map((step) => `- ${step.description}`)
    .join('\n');
  return [
    planningPrompt(input),
    `Steps done so far:\n${done || '(none)'}`,
    `The old remaining steps, which no longer fit the page (${input.reason}):\n${left || '(none)'}`,
  ].join('\n\n');
}
