// The action step's prompt and answer. The answer is one schema: its core fields here, and
// each feature's field from the feature (in the order the model has always been shown them).
import { z } from 'zod';
import { CollectOutputField } from '../../collect/model-output';
import { MissingInfoField } from '../../missing-info/missing-info';
import { ReadPageField } from '../../page-reads/read-page';
import { ExtractField } from '../extraction/model-extract';
import { OutcomeField } from '../outcome-prediction/predicted';
import type { PromptSections } from './part';
import { describePage, fenceUntrusted, type PageState } from '../../page/page-state';
import { systemPrompt } from '../system-prompt';

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
      "Optional: several independent form-field actions to run in one go (first = action), optionally ending with the form's submit button. Null otherwise.",
    ),
  confidence: z.number().min(0).max(1),
  outcome: OutcomeField,
  readPage: ReadPageField,
  collect: CollectOutputField.optional(),
  missingInfo: MissingInfoField,
  extract: ExtractField,
});
export type ActionGenerationOutput = z.infer<typeof ActionGenerationOutput>;

export const GRAMMAR =
  'click(id), setValue(id, "text"), select(id, "option"), hover(id), press("Key"), scroll(id | "up" | "down"), navigate("https://…"), goBack(), wait(seconds), googleSearch("query"), finish("final answer"), fail("reason")';

const baseSystem = [
  'You are a browser agent. Choose the next action that moves toward the user goal.',
  `Grammar: ${GRAMMAR}.`,
  'Use only element ids listed on the page; never an element marked (occluded) or [disabled].',
  "When several form fields can be filled independently (same form, no navigation), return them as a chain; it may end with the form's own submit button (Save, Submit, Next) right after the fields, so the form goes in one round trip. Never chain a link, navigate, a button that deletes, cancels or pays, finish or fail.",
  'Call finish("…") only when the goal is achieved, with a one-line answer. Call fail("…") when it cannot be achieved.',
  "State every other action's outcome (checked after it runs); when it achieves the whole goal, set completesGoal and write the user's answer.",
  'Never invent values the user did not give: when the next action needs a value you do not have (a required field the goal does not fill), report it in missingInfo instead of acting. Use googleSearch for public facts.',
  'The page list shows interactive elements only. To read text (articles, tables, cards, documentation), set readPage: first {"mode": "outline"}, then {"mode": "content", "grep": "<xpath or words from the outline>"}.',
];

export const actionGenerationSystem = systemPrompt(baseSystem);

/**
 * The system prompt, with the rules of the parts that take part in this run (parts.ts): tasks
 * that do not extract or see a screenshot do not pay for those rules in every call.
 */
export function actionGenerationSystemFor(rules: readonly string[]): string {
  return rules.length === 0 ? actionGenerationSystem : systemPrompt([...baseSystem, ...rules]);
}

export function actionGenerationPrompt(
  input: {
    query: string;
    page: PageState;
    /** The plan's steps, as the plan was made (a stable prefix). */
    plan: string;
    /** Where the task is in the plan: the step now and the steps done. */
    progress?: string;
    history: string;
    verification: string;
    /** The session's conversation: earlier goals and results, the user's answers. */
    conversation?: string;
    rag: string;
    feedback: string;
    /** The task's sites and the user's secrets, from action-policy.ts's taskRules. */
    rules?: string;
  } & PromptSections,
): string {
  // Static first, changing last (system-prompt.ts): consecutive calls of a task then share a
  // long prefix, which providers cache (Gemini's implicit caching, OpenAI's prompt caching)
  // and bill for less. The sections a step may add or change (lessons, counts, extractions)
  // come after the plan, then the history, and the page last.
  return [
    `User goal: ${input.query}`,
    input.rules ?? '',
    input.conversation ? `Conversation so far:\n${fenceUntrusted(input.conversation)}` : '',
    input.rag ? `Organisation knowledge:\n${fenceUntrusted(input.rag)}` : '',
    `Plan:\n${input.plan}`,
    // After the plan: a googleSearch() mid-task adds results, and the plan before them stays
    // the same text.
    input.web ? `Web search results:\n${fenceUntrusted(input.web)}` : '',
    // Lessons name page elements, so they are page data too.
    input.skills
      ? `Lessons from earlier tasks on this site (apply them when they fit):\n${fenceUntrusted(input.skills)}`
      : '',
    input.collected ?? '',
    input.extractions ?? '',
    input.routine ?? '',
    // The history and verdicts quote what pages showed (field values, error texts): data too.
    `Previous actions:\n${fenceUntrusted(input.history)}`,
    input.progress ? `Plan progress: ${input.progress}` : '',
    input.verification ? `Last verification:\n${fenceUntrusted(input.verification)}` : '',
    // With what a richer capture brought: the HTML digest, points, the screenshot's note.
    `Current page:\n${describePage(input.page, { capture: true })}`,
    input.feedback ? `Correction: ${input.feedback}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
