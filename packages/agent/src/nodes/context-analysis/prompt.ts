import { z } from 'zod';
import { PlanningOutput, planningSystem } from '../planning/prompt';
import { describePage, fenceUntrusted, type PageState } from '../../page/page-state';
import { nodeInstructions, systemPrompt } from '../system-prompt';

export const Source = z.enum(['MEMORY', 'PAGE', 'WEB_SEARCH', 'ASK_USER']);
export type Source = z.infer<typeof Source>;

export type ContextAnalysisOutput = z.infer<typeof ContextAnalysisOutput>;
export const ContextAnalysisOutput = z.object({
  source: Source.describe('The single best source of the information the goal needs.'),
  requiredSources: z.array(Source).describe('Every source needed (multi-source synthesis).'),
  missingInformation: z
    .array(z.string())
    .describe('Facts the user must provide (ASK_USER) or that must be searched.'),
  searchQuery: z
    .string()
    .nullable()
    .describe('A refined web search query when WEB_SEARCH is required, else null.'),
  reasoning: z.string(),
});

export const contextAnalysisSystem = systemPrompt([
  'You decide where the information needed to achieve a browser goal comes from, before any action runs.',
  'MEMORY: the conversation or knowledge already has it. PAGE: it is visible on the current page or the goal needs no extra facts.',
  'WEB_SEARCH: a public fact must be looked up. ASK_USER: private data only the user knows is missing (e.g. a value the goal does not state).',
  'Prefer PAGE when the goal itself states every value needed. Never invent values.',
]);

export function contextAnalysisPrompt(input: {
  query: string;
  page: PageState;
  /** The session's conversation (memory), from the store. */
  conversation: string;
  /** The user's answer to this task's question, when they just gave one. */
  answer: string | null;
  /** This task's actions so far, when it has any. */
  history: string;
  rag: string;
  /** Elements listed: more when the same call plans (planning lists 200). */
  maxElements?: number;
}): string {
  return [
    `User goal: ${input.query}`,
    `Conversation so far (the user's own words are in it):\n${input.conversation ? fenceUntrusted(input.conversation) : '(none)'}`,
    input.answer ? `The user just answered your question: ${fenceUntrusted(input.answer)}` : '',
    input.history ? `Actions taken so far:\n${fenceUntrusted(input.history)}` : '',
    input.rag
      ? `Organisation knowledge:\n${fenceUntrusted(input.rag)}`
      : 'Organisation knowledge: (none)',
    `Current page:\n${describePage(input.page, { maxElements: input.maxElements ?? 150 })}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * Context analysis and planning in one call, for a task with no plan yet: the plan comes with
 * the analysis whenever it can be made now (the page or memory has what it needs), and is null
 * when a web search or the user's answer must come first (planning then asks on its own).
 */
export type ContextAndPlanOutput = z.infer<typeof ContextAndPlanOutput>;
export const ContextAndPlanOutput = ContextAnalysisOutput.extend({
  plan: PlanningOutput.nullish().describe(
    'The plan when source and requiredSources are only PAGE or MEMORY; null when WEB_SEARCH or ASK_USER comes first.',
  ),
});

/** The line that asks context analysis for the plan too (the scripted models know it by it). */
export const ALSO_PLAN =
  'Then, unless WEB_SEARCH or ASK_USER is required, also write the plan (plan):';

export const contextAndPlanSystem = [
  contextAnalysisSystem,
  ALSO_PLAN,
  // Planning's own lines: the shared preamble is said once, first.
  nodeInstructions(planningSystem),
].join('\n');
