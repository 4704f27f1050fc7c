// GFM table checks for content-mode Markdown: finds every table (a row line followed by a
// delimiter line) and asserts it is one GFM reads as intended.
import { expect } from 'vitest';

/** Cells of one GFM row: split at pipes no backslash escapes, the outer two not counted. */
export const gfmCells = (line: string): string[] =>
  line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

const DELIMITER = /^\|(?: :?-+:? \|)+$/;

/**
 * Every GFM table of a Markdown text, as its lines, each checked: it starts a block (a blank
 * line before it), every row is one line from | to |, and all rows have the header's width.
 */
export function gfmTables(markdown: string): string[][] {
  const lines = markdown.split('\n');
  const tables: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!DELIMITER.test(lines[i + 1] ?? '')) continue;
    const start = i;
    const table: string[] = [];
    while (lines[i]?.startsWith('|')) table.push(lines[i++] as string);
    expect(lines[start - 1] ?? '', 'line before the table').toBe('');
    const width = gfmCells(table[0] as string).length;
    for (const row of table) {
      expect(row, 'a row is one line from | to |').toMatch(/^\|.*\|$/);
      expect(gfmCells(row), `row "${row}"`).toHaveLength(width);
    }
    tables.push(table);
  }
  return tables;
}
