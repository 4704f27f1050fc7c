// The extraction sub-agent's prompts. The page is data: it is fenced and the system prompt
// says so, because a page can carry text written to steer an agent. The system prompt opens
// with the rule every agent prompt opens with, word for word: the sub-agent's calls sit between
// the agent's in a task, and a provider's prompt cache reuses only a prefix they share.
import { fenceUntrusted, UNTRUSTED_CONTENT_RULE } from '@tandem/contracts';
import { schemaFields } from './schema';

const BASE_SYSTEM = [
  UNTRUSTED_CONTENT_RULE,
  'You extract data from web page content given as Markdown.',
  'Use only what the content says; never invent, complete or guess a value. Copy names and text exactly as written; numbers as plain numbers (1249.5, not "$1,249.50").',
].join('\n');

export function extractionSystem(options: { structured: boolean; strict: boolean }): string {
  const lines = [BASE_SYSTEM];
  if (options.structured) {
    lines.push(
      'Return data matching the provided schema in "data". Do not add fields not in the schema.',
      'The content may be one part of a longer page: extract what this part holds; for a list, every item in this part, each once.',
    );
  } else {
    lines.push('Answer in "text": the requested information, concise, as Markdown.');
  }
  if (options.strict) {
    lines.push(
      'Your previous answer did not match the schema. Follow it exactly: the listed types, required fields present, no other fields.',
    );
  }
  return lines.join('\n');
}

export interface ChunkPromptInput {
  query: string;
  schema: Record<string, unknown> | null;
  content: string;
  /** "part 2 of 5", with the chunk's structural context. */
  position: string;
  hint?: string;
}

export function extractionPrompt(input: ChunkPromptInput): string {
  return [
    `What to extract: ${input.query}`,
    input.schema ? `Schema of "data":\n${JSON.stringify(input.schema)}` : '',
    input.position ? `Content position: ${input.position}` : '',
    input.hint ?? '',
    `Content:\n${fenceUntrusted(input.content)}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

export const EMPTY_HINT =
  'Your previous answer was empty. Look again: lists, tables and cards in the content hold the requested items. If the content really has none, answer with an empty result again.';

/** The query a strategy keeps: what was asked, with the schema's fields when it named none. */
export function queryTemplate(query: string, schema: Record<string, unknown> | null): string {
  const fields = schema ? schemaFields(schema) : [];
  return fields.length > 0 && !fields.every((field) => query.includes(field))
    ? `${query} (fields: ${fields.join(', ')})`
    : query;
}
