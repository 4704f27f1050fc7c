// Collected items as CSV: the bookkeeping columns, then every data field seen. Cells are
// written (formulas defused, nested values as JSON) by the contracts' csvTable.
import { csvTable } from '@tandem/contracts';
import type { CollectedItem } from '@tandem/store';

export type CsvItem = Pick<CollectedItem, 'seq' | 'type' | 'sourceUrl' | 'data'>;

/** Bookkeeping columns, written first; the underscore keeps them apart from data fields. */
export const CSV_META_COLUMNS = ['_seq', '_type', '_sourceUrl'] as const;

/** The data fields of all items, in the order they were first seen. */
export function csvColumns(items: readonly CsvItem[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const key of Object.keys(item.data)) seen.add(key);
  return [...seen];
}

/** The whole file: header line, then one line per item (RFC 4180). */
export function collectedItemsToCsv(items: readonly CsvItem[]): string {
  const columns = csvColumns(items);
  return csvTable(
    [...CSV_META_COLUMNS, ...columns],
    items.map((item) => [
      item.seq,
      item.type,
      item.sourceUrl,
      ...columns.map((column) => item.data[column]),
    ]),
  );
}
