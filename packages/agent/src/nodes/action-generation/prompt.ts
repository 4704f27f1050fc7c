import { z } from 'zod';
import { COLLECT_PROMPT_RULES, CollectOutputField } from '../../collect/model-output';
import {
  describePage,
  fenceUntrusted,
  UNTRUSTED_CONTENT_RULE,
  type PageState,
} from '../../page/page-state';

export const ActionGenerationOutput = z.object({
  thought: z.string().describe('Short reasoning: what the page shows and why this action.'),
  action: z
    .string()
    .describe('The next action in the grammar, e.g. click("14") or finish("summary").'),
  chain: z
    .array(
      z.object({ action: z.string(), description: z.string(), canFail: z.boolean().optional() }),
    )
    .nullable()
    .describe(
      'Optional: several independent form-field actions to run in one go (first = action). Null otherwise.',
    ),
  confidence: z.number().min(0).max(1),
  readPage: z
    .object({
      mode: z.enum(['outline', 'content']),
      grep: z.string().max(1_000).nullable().optional(),
      selector: z.string().max(1_000).nullable().optional(),
    })
    .nullable()
    .optional()
    .describe(
      'Optional: read the page before acting (outline: sections and xpaths; content: text of the sections matching grep/selector). The action is then not executed. Null otherwise.',
    ),
  collect: CollectOutputField.optional(),
});
export type ActionGenerationOutput = z.infer<typeof ActionGenerationOutput>;

const baseSystem = [
  'You are a browser agent. Choose the next action that moves toward the user goal.',
  'Grammar: click(id), setValue(id, "text"), select(id, "option"), hover(id), press("Key"), scroll(id | "up" | "down"), navigate("https://…"), goBack(), wait(seconds), googleSearch("query"), finish("final answer"), fail("reason").',
  'Use only element ids listed on the page; never an element marked (occluded) or [disabled].',
  'When several form fields can be filled independently (same form, no navigation, no submit), you may return them as a chain; never put a submit, link, navigate, finish or fail in a chain.',
  'Call finish("…") only when the goal is achieved, with a one-line answer. Call fail("…") when it cannot be achieved.',
  'Never invent values the user did not give; use googleSearch for public facts.',
  'The page list shows interactive elements only. To read text (articles, tables, cards, documentation), set readPage: first {"mode": "outline"}, then {"mode": "content", "grep": "<xpath or words from the outline>"}.',
  UNTRUSTED_CONTENT_RULE,
];

export const actionGenerationSystem = baseSystem.join('\n');

/**
 * The system prompt, with the streaming-extraction rules only for tasks that extract:
 * other tasks do not pay for them in every call.
 */
export function actionGenerationSystemFor(options: { collecting: boolean }): string {
  return options.collecting
    ? [...baseSystem, COLLECT_PROMPT_RULES].join('\n')
    : actionGenerationSystem;
}

export function actionGenerationPrompt(input: {
  query: string;
  page: PageState;
  plan: string;
  history: string;
  verification: string;
  /** The session's conversation: earlier goals and results, the user's answers. */
  conversation?: string;
  rag: string;
  web: string | null;
  feedback: string;
  /** "Collected so far …" (counts only, never items); empty when the task does not collect. */
  collected?: string;
}): string {
  return [
    `User goal: ${input.query}`,
    input.conversation ? `Conversation so far:\n${fenceUntrusted(input.conversation)}` : '',
    input.collected ?? '',
    `Plan:\n${input.plan}`,
    `Previous actions:\n${input.history}`,
    input.verification ? `Last verification: ${input.verification}` : '',
    input.rag ? `Organisation knowledge:\n${fenceUntrusted(input.rag)}` : '',
    input.web ? `Web search results:\n${fenceUntrusted(input.web)}` : '',
    `Current page:\n${describePage(input.page)}`,
    input.feedback ? `Correction: ${input.feedback}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
