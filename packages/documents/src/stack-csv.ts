// A stack's table as CSV: one line per document in the stack's order, one column per defined
// column, cells written like collected items' (formulas defused, nested values as JSON).
import type { Stack, StackRow } from '@tandem/store';
import { csvTable } from '@tandem/contracts';

/** `_document` first: the id of the document each row came from. */
export function stackToCsv(
  stack: Pick<Stack, 'columns' | 'documentIds'>,
  rows: readonly StackRow[],
): string {
  const byDocument = new Map(rows.map((row) => [row.documentId, row]));
  const lines: unknown[][] = [];
  for (const documentId of stack.documentIds) {
    const row = byDocument.get(documentId);
    if (row) lines.push([documentId, ...stack.columns.map((c) => row.cells[c.name] ?? null)]);
  }
  return csvTable(['_document', ...stack.columns.map((c) => c.name)], lines);
}
