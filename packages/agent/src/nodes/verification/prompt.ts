import { z } from 'zod';
import { describePage, fenceUntrusted, type PageState } from '../../page/page-state';
import { systemPrompt } from '../system-prompt';

export const VerificationOutput = z.object({
  action_succeeded: z.boolean().describe('The last action did what it was meant to do.'),
  task_completed: z.boolean().describe('The whole user goal is now achieved.'),
  confidence: z.number().min(0).max(1),
  reason: z.string(),
});

export const verificationSystem = systemPrompt([
  'You verify a browser agent. Compare the state before and after its last action and the observations.',
  'action_succeeded: did the action have its intended effect? task_completed: is the user goal fully achieved now (e.g. a success message for the saved record)?',
  'Be strict: a spinner or an unchanged page is not success. Answer with calibrated confidence.',
]);

/** The line of the light prompt naming the plan's last step (the scripted models read it). */
export const LAST_STEP = 'It was the last step of the plan:';

/** Tier 2: observations only (~100 tokens). */
export function lightPrompt(input: {
  goal: string;
  action: string;
  observations: string[];
  /** The plan's last step, when the action was meant to do it. */
  lastStep?: string | undefined;
}): string {
  return [
    `Goal: ${input.goal}`,
    `Last action: ${input.action}`,
    ...(input.lastStep ? [`${LAST_STEP} ${input.lastStep}`] : []),
    `Observations:\n${fenceUntrusted(`- ${input.observations.join('\n- ')}`)}`,
  ].join('\n');
}

/** Tier 3: the full picture, with the page after the action. */
export function fullPrompt(input: {
  goal: string;
  action: string;
  expected: string;
  before: string;
  observations: string[];
  page: PageState;
}): string {
  return [
    `Goal: ${input.goal}`,
    `Last action: ${input.action}`,
    `Expected outcome: ${input.expected}`,
    // The elements before and what changed quote the page (names, messages): page data.
    `Before (elements):\n${fenceUntrusted(input.before.slice(0, 1500))}`,
    `Observations:\n${fenceUntrusted(`- ${input.observations.join('\n- ')}`)}`,
    `Page now:\n${describePage(input.page)}`,
  ].join('\n\n');
}
