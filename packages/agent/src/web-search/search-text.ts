// Search results as prompt text: the compact summary handed to later prompts, and the helpers
// the evaluator's prompt shares with it. Results are untrusted web text throughout.
import type { WebSearchResult } from './port';

const MAX_SUMMARY_CHARS = 2_000;
const MAX_SNIPPET_CHARS = 400;

/** The last attempt's query and scope, the evaluator's answer and as many results as fit. */
export function summarize(
  results: WebSearchResult[],
  answer: string | null,
  last: { query: string; domain: string | null } | undefined,
): string {
  if (results.length === 0 && answer === null) return '';
  const scope = last?.domain != null ? `site ${last.domain}` : 'whole web';
  const lines = [`Web search "${last?.query ?? ''}" (${scope}):`];
  if (answer !== null && answer.trim() !== '') lines.push(`Answer: ${clip(oneLine(answer), 600)}`);
  let length = lines.join('\n').length;
  for (const [i, result] of results.entries()) {
    const entry = `[${i + 1}] ${oneLine(result.title)} — ${result.url}\n    ${clip(oneLine(result.content), MAX_SNIPPET_CHARS)}`;
    if (length + entry.length + 1 > MAX_SUMMARY_CHARS) break;
    lines.push(entry);
    length += entry.length + 1;
  }
  return lines.join('\n');
}

export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
export const clip = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** Delimits untrusted text; a closing tag inside the data can't end the block early. */
export function fence(tag: string, text: string): string {
  const safe = text.replaceAll(`</${tag}>`, `<\\/${tag}>`);
  return `<${tag}>\n${safe}\n</${tag}>`;
}
