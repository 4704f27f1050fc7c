// A stack's table as CSV: one line per document in the stack's order, one column per defined
// column, cells written like collected items' (formulas defused, nested values as JSON).
import type { Stack, StackRow } from '@tandem/store';
import { csvField } from '../collect/csv';

/** `_document` first: the id of the document each row came from. */
export function stackToCsv(
  stack: Pick<Stack, 'columns' | 'documentIds'>,
  rows: readonly StackRow[],
): string {
  const byDocument = new Map(rows.map((row) => [row.documentId, row]));
  const header = ['_document', ...stack.columns.map((c) => c.name)];
  const lines = [header.map(csvField).join(',')];
  for (const documentId of stack.documentIds) {
    const row = byDocument.get(documentId);
    if (!row) continue;
    lines.push(
      [documentId, ...stack.columns.map((c) => row.cells[c.name] ?? null)].map(csvField).join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
