import { z } from 'zod';
import { describePage, fenceUntrusted, type PageState } from '../../page/page-state';
import { systemPrompt } from '../system-prompt';

export const CriticOutput = z.object({
  approve: z.boolean().describe('True when the action fits the goal and the page as shown.'),
  reason: z.string().describe('One sentence: why it fits, or what is wrong with it.'),
  evidence: z
    .string()
    .describe('What on the page supports the action (for finish: what shows the goal is done).'),
});
export type CriticOutput = z.infer<typeof CriticOutput>;

export const criticSystem = systemPrompt([
  'You review a browser agent’s next action before it runs. Approve it only if it moves toward the user goal on this page.',
  'Reject: a value typed into the wrong kind of field (a date in a name field, an email in a phone field), a value the user never gave, an element that does not match the step, finish() when the page does not show the goal achieved, fail() when the goal is still reachable.',
  'Be brief. When in doubt about style, approve; reject only real mistakes.',
]);

export function criticPrompt(input: {
  query: string;
  step: string;
  action: string;
  actionInWords: string;
  thought: string;
  page: PageState;
}): string {
  return [
    `User goal: ${input.query}`,
    input.step ? `Current plan step: ${input.step}` : '',
    // In words, the action names its targets as the page does: page data.
    `Proposed action: ${input.action}\n${fenceUntrusted(input.actionInWords)}`,
    input.thought ? `The agent's reasoning: ${input.thought}` : '',
    `Current page:\n${describePage(input.page)}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}
