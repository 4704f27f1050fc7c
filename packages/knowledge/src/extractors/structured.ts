import { stringify as toYaml } from 'yaml';

export type Fence = 'json' | 'yaml';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function block(value: unknown, fence: Fence): string {
  const body = fence === 'json' ? JSON.stringify(value, null, 2) : toYaml(value).trimEnd();
  return `\`\`\`${fence}\n${body}\n\`\`\``;
}

function section(key: string, value: unknown, fence: Fence): string {
  const heading = `## ${key}`;
  if (value === null || typeof value !== 'object') return `${heading}\n\n${String(value)}`;
  return `${heading}\n\n${block(value, fence)}`;
}

/**
 * Top-level keys become headings so a chunker splits a large object at its natural seams and
 * every chunk names the key it came from; values stay in fenced blocks, which keeps nesting
 * exact (a Markdown list of nested objects loses which value belongs to which key).
 */
export function structuredToMarkdown(value: unknown, fence: Fence): string {
  if (!isRecord(value)) return block(value, fence);
  return Object.entries(value)
    .map(([key, entry]) => section(key, entry, fence))
    .join('\n\n');
}
