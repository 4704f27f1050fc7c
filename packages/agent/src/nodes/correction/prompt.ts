import { CorrectionStrategy } from '@tandem/contracts';
import { z } from 'zod';
import { describePage, fenceUntrusted, type PageState } from '../../page/page-state';
import { systemPrompt } from '../system-prompt';

export const CorrectionOutput = z.object({
  strategy: CorrectionStrategy,
  action: z.string().describe('The corrected action in the grammar, on a listed element id.'),
  reason: z.string(),
});

export const correctionSystem = systemPrompt([
  'A browser agent action failed verification. Propose one corrected action.',
  'Strategies: ALTERNATIVE_SELECTOR (same intent, another element), ALTERNATIVE_TOOL (another kind of action), GATHER_INFORMATION (scroll/wait to reveal), UPDATE_PLAN (a different next step), RETRY_WITH_DELAY (wait then retry).',
  'Use only listed element ids; never an (occluded) or [disabled] element. Answer fail("…") if the goal cannot be reached.',
]);

export function correctionPrompt(input: {
  goal: string;
  step: string;
  failed: string;
  reason: string;
  attempt: number;
  page: PageState;
}): string {
  return [
    `Goal: ${input.goal}`,
    `Current plan step: ${input.step}`,
    `Failed action (attempt ${input.attempt}): ${input.failed}`,
    // The verdict quotes the page (its errors, a field's value): data, not instructions.
    `Why it failed:\n${fenceUntrusted(input.reason)}`,
    `Page now:\n${describePage(input.page)}`,
  ].join('\n\n');
}
