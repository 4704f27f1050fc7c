import { z } from 'zod';
import {
  describePage,
  fenceUntrusted,
  UNTRUSTED_CONTENT_RULE,
  type PageState,
} from '../../page/page-state';

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

export const contextAnalysisSystem = [
  'You decide where the information needed to achieve a browser goal comes from, before any action runs.',
  'MEMORY: the conversation or knowledge already has it. PAGE: it is visible on the current page or the goal needs no extra facts.',
  'WEB_SEARCH: a public fact must be looked up. ASK_USER: private data only the user knows is missing (e.g. a value the goal does not state).',
  'Prefer PAGE when the goal itself states every value needed. Never invent values.',
  UNTRUSTED_CONTENT_RULE,
].join('\n');

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
}): string {
  return [
    `User goal: ${input.query}`,
    `Conversation so far (the user's own words are in it):\n${input.conversation ? fenceUntrusted(input.conversation) : '(none)'}`,
    input.answer ? `The user just answered your question: ${fenceUntrusted(input.answer)}` : '',
    input.history ? `Actions taken so far:\n${fenceUntrusted(input.history)}` : '',
    input.rag
      ? `Organisation knowledge:\n${fenceUntrusted(input.rag)}`
      : 'Organisation knowledge: (none)',
    `Current page:\n${describePage(input.page, { maxElements: 150 })}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}
