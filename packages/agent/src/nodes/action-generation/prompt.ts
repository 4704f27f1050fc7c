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
      "Optional: several independent form-field actions to run in one go (first = action), optionally ending with the form's submit button. Null otherwise.",
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
  missingInfo: z
    .array(
      z.object({
        what: z.string().describe('The value that is missing, e.g. "middle name".'),
        kind: z
          .enum(['PRIVATE_DATA', 'EXTERNAL_KNOWLEDGE'])
          .describe('PRIVATE_DATA: only the user knows it; EXTERNAL_KNOWLEDGE: a public fact.'),
        searchQuery: z.string().nullable().optional(),
      }),
    )
    .max(5)
    .nullable()
    .optional()
    .describe(
      'Spec 003 MISSING_INFO: a value the next action needs that is in neither the goal, the conversation nor the page. Report it instead of inventing it; the action is then not executed. Null otherwise.',
    ),
  extract: z
    .object({
      query: z.string().max(2_000).nullable().optional(),
      outputSchema: z
        .record(z.string(), z.unknown())
        .nullable()
        .optional()
        .describe('JSON Schema of the data, e.g. an array of objects with typed properties.'),
      cssSelector: z.string().max(1_000).nullable().optional(),
      extractionId: z.string().max(100).nullable().optional(),
    })
    .nullable()
    .optional()
    .describe(
      'Optional: extract structured data from this page on the server (stored; you get a summary). The action is then not executed. Null otherwise.',
    ),
});
export type ActionGenerationOutput = z.infer<typeof ActionGenerationOutput>;

const GRAMMAR =
  'click(id), setValue(id, "text"), select(id, "option"), hover(id), press("Key"), scroll(id | "up" | "down"), navigate("https://…"), goBack(), wait(seconds), googleSearch("query"), finish("final answer"), fail("reason")';

const baseSystem = [
  'You are a browser agent. Choose the next action that moves toward the user goal.',
  `Grammar: ${GRAMMAR}.`,
  'Use only element ids listed on the page; never an element marked (occluded) or [disabled].',
  "When several form fields can be filled independently (same form, no navigation), return them as a chain; it may end with the form's own submit button (Save, Submit, Next) right after the fields, so the form goes in one round trip. Never chain a link, navigate, a button that deletes, cancels or pays, finish or fail.",
  'Call finish("…") only when the goal is achieved, with a one-line answer. Call fail("…") when it cannot be achieved.',
  'Never invent values the user did not give: when the next action needs a value you do not have (a required field the goal does not fill), report it in missingInfo instead of acting. Use googleSearch for public facts.',
  'The page list shows interactive elements only. To read text (articles, tables, cards, documentation), set readPage: first {"mode": "outline"}, then {"mode": "content", "grep": "<xpath or words from the outline>"}.',
  UNTRUSTED_CONTENT_RULE,
];

export const actionGenerationSystem = baseSystem.join('\n');

/**
 * The system prompt, with the streaming-extraction rules only for tasks that extract:
 * other tasks do not pay for them in every call.
 */
/**
 * The extract field (docs/specs.md, "the strategy cache"), and its prompt guidance to reuse an
 * extraction_id on similar pages.
 */
export const EXTRACT_PROMPT_RULES = [
  'Structured extraction: to get many items or a table as data ("every product as JSON with name, price and rating"), set extract: {"query": "…", "outputSchema": <JSON Schema>, "cssSelector": optional scope}. The server reads this page, extracts, stores the data and tells you what it got; you never copy the data yourself.',
  'If you see an extraction_id from a previous extraction and are on a structurally similar page (the next page of the same list), reuse it: extract: {"extractionId": "…"}; the results are merged without duplicates. Then go on (next page, or finish with a one-line summary of the counts).',
].join('\n');

/**
 * Hybrid mode (a screenshot is attached): the coordinate click, offered only then because its
 * point must come from an image of this very page.
 */
export const HYBRID_PROMPT_RULES = [
  `Grammar in this step: ${GRAMMAR.replace('click(id), ', 'click(id), clickAt(x, y), ')}.`,
  'A screenshot of the viewport is attached. clickAt(x, y) clicks the point (x, y) of it, in CSS pixels from its top-left corner: use it only for what the element list does not have (a control drawn on a canvas, an unnamed icon), aim at the middle of the thing, and never chain it. Prefer click(id) for anything listed.',
].join('\n');

export function actionGenerationSystemFor(options: {
  collecting: boolean;
  extracting?: boolean;
  /** A screenshot is attached: clickAt is offered. */
  hybrid?: boolean;
}): string {
  if (!options.collecting && !options.extracting && !options.hybrid) return actionGenerationSystem;
  return [
    ...baseSystem,
    ...(options.hybrid ? [HYBRID_PROMPT_RULES] : []),
    ...(options.collecting ? [COLLECT_PROMPT_RULES] : []),
    ...(options.extracting ? [EXTRACT_PROMPT_RULES] : []),
  ].join('\n');
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
  /** Extraction summaries and the strategies known for this page (ids and counts, no data). */
  extractions?: string;
  /** Lessons from earlier corrections on this site (the skills library); empty when none. */
  skills?: string;
  /** The task's sites and the user's secrets, from action-policy.ts's taskRules. */
  rules?: string;
}): string {
  return [
    `User goal: ${input.query}`,
    input.rules ?? '',
    input.conversation ? `Conversation so far:\n${fenceUntrusted(input.conversation)}` : '',
    input.collected ?? '',
    input.extractions ?? '',
    `Plan:\n${input.plan}`,
    // The history and verdicts quote what pages showed (field values, error texts): data too.
    `Previous actions:\n${fenceUntrusted(input.history)}`,
    input.verification ? `Last verification:\n${fenceUntrusted(input.verification)}` : '',
    input.rag ? `Organisation knowledge:\n${fenceUntrusted(input.rag)}` : '',
    // Lessons name page elements, so they are page data too.
    input.skills
      ? `Lessons from earlier tasks on this site (apply them when they fit):\n${fenceUntrusted(input.skills)}`
      : '',
    input.web ? `Web search results:\n${fenceUntrusted(input.web)}` : '',
    // With what a richer capture brought: the HTML digest, points, the screenshot's note.
    `Current page:\n${describePage(input.page, { capture: true })}`,
    input.feedback ? `Correction: ${input.feedback}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
