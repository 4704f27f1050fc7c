import { z } from 'zod';
import type { InformationSource } from '../../state';
import { describePage, fenceUntrusted, type PageState } from '../../page/page-state';
import { systemPrompt } from '../system-prompt';

export type PlanningOutput = z.infer<typeof PlanningOutput>;
export const PlanningOutput = z.object({
  goal: z.string(),
  steps: z
    .array(
      z.object({
        description: z
          .string()
          .describe(
            'One UI step, naming the element, e.g. "Click \'New/Search\'" or "Type Jas into First name".',
          ),
        refinable: z.boolean().describe('True when the step names one element and one action.'),
        expect: z
          .string()
          .nullish()
          .describe(
            'A short text the page will newly show once this step worked (a confirmation, the new record), or null when you cannot know it.',
          ),
        contingencies: z
          .array(
            z.object({
              condition: z
                .string()
                .describe(
                  'What may get in the way, quoting the text it would show, e.g. a banner with "Accept cookies".',
                ),
              action: z
                .string()
                .describe(
                  'One UI action that clears it, naming its target: "Click \'Accept cookies\'".',
                ),
            }),
          )
          .max(3)
          .optional()
          .describe('Optional obstacles foreseen for this step (conditional planning).'),
        subTask: z
          .string()
          .nullish()
          .describe('The name of the sub-task this step belongs to, when subTasks are given.'),
      }),
    )
    .min(1)
    .max(25),
  subTasks: z
    .array(
      z.object({
        name: z.string(),
        description: z.string(),
        inputs: z.array(z.string()).describe('What it needs from the goal or earlier sub-tasks.'),
        outputs: z.array(z.string()).describe('What is true or known once it is done.'),
      }),
    )
    .max(8)
    .nullish()
    .describe(
      'Only for goals with several distinct parts: the parts in order, each a contiguous run of steps.',
    ),
  answer: z
    .string()
    .nullish()
    .describe(
      'What to tell the user once the last step worked, in one to three plain sentences, when it does not depend on what the pages will show; else null.',
    ),
});

export const planningSystem = systemPrompt([
  'You plan how to achieve a goal in a web application, step by step, as a user would with mouse and keyboard.',
  'Each step is one UI action that names its target by its visible label. Keep the plan short; the last step achieves the goal.',
  'Do not add verification steps; every action is verified automatically.',
  'Split a goal of several distinct parts (add a record, then book, then send a message) into subTasks with their inputs and outputs, each step naming its subTask; a goal of one part has none.',
  'When something optional may block a step (a consent banner, a "session expired" dialog, a confirmation), attach a contingency to that step, not a step of its own: its condition quotes the text shown, its action names the element that clears it.',
]);

export function planningPrompt(input: {
  query: string;
  page: PageState;
  /** The session's conversation: earlier goals and results, the user's answers. */
  conversation: string;
  rag: string;
  web: string | null;
  /** What context analysis said the plan needs (multi-source synthesis); [] when unknown. */
  requiredSources?: readonly InformationSource[];
}): string {
  return [
    `Goal: ${input.query}`,
    sourcesLine(input.requiredSources ?? [], input),
    input.conversation
      ? `Conversation so far (MEMORY):\n${fenceUntrusted(input.conversation)}`
      : '',
    input.rag ? `Organisation knowledge:\n${fenceUntrusted(input.rag)}` : '',
    input.web ? `Web search results (WEB_SEARCH):\n${fenceUntrusted(input.web)}` : '',
    `Current page (PAGE):\n${describePage(input.page, { maxElements: 200 })}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * Multi-source synthesis (docs/specs.md, "multi-source synthesis"): every source the analysis asked
 * for is merged below; one that gave nothing is named, so the plan does not assume what was never
 * found.
 */
function sourcesLine(
  required: readonly InformationSource[],
  found: { conversation: string; web: string | null },
): string {
  if (required.length === 0) return '';
  const empty = required.filter(
    (s) => (s === 'MEMORY' && !found.conversation) || (s === 'WEB_SEARCH' && !found.web),
  );
  const missing = empty.map((s) =>
    s === 'MEMORY'
      ? 'MEMORY gave nothing: there is no earlier conversation in this session'
      : 'WEB_SEARCH gave nothing: no web results are available',
  );
  return [
    `Sources this plan draws on: ${required.join(', ')}; each is given below.`,
    ...missing.map((m) => `${m}; do not assume what it would have said.`),
  ].join('\n');
}
