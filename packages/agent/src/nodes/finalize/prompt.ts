import { z } from 'zod';
import { fenceUntrusted } from '../../page/page-state';
import { systemPrompt } from '../system-prompt';

export const FinalAnswerOutput = z.object({
  answer: z
    .string()
    .min(1)
    .max(1_000)
    .describe('The answer for the user: one to three short sentences, plain language.'),
});

export const finalAnswerSystem = systemPrompt([
  'You write the final answer of a browser agent for the person who gave it the goal.',
  'Say what was done and how it ended, or give the information the goal asked for, in one to three short sentences.',
  'Plain language: no element ids, no code, no action syntax. Quote what the page confirmed when it helps.',
]);

export function finalAnswerPrompt(input: {
  goal: string;
  steps: string;
  outcome: string;
  confirmations: string[];
}): string {
  return [
    `Goal: ${input.goal}`,
    `Steps taken:\n${fenceUntrusted(input.steps)}`,
    `How it ended: ${input.outcome}`,
    input.confirmations.length > 0
      ? `What the page shows now:\n${fenceUntrusted(input.confirmations.join('\n'))}`
      : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
