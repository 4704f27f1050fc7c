// Collected items as CSV (RFC 4180) for people who open them in a spreadsheet. Page content is
// untrusted, so cells that a spreadsheet would run as a formula are defused (OWASP "CSV
// injection"), and nested values are written as JSON rather than "[object Object]".
import type { CollectedItem } from '@tandem/store';

export type CsvItem = Pick<CollectedItem, 'seq' | 'type' | 'sourceUrl' | 'data'>;

/** Bookkeeping columns, written first; the underscore keeps them apart from data fields. */
export const CSV_META_COLUMNS = ['_seq', '_type', '_sourceUrl'] as const;

// =, +, -, @ start a formula in Excel, LibreOffice and Google Sheets; a tab or CR before them
// hides it. Numbers and phone numbers ("-12.5", "+1 (555) 010-2000") are data, not formulas.
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER_LIKE = /^[+-]?\d[\d\s().,-]*$/;

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    return FORMULA_START.test(value) && !NUMBER_LIKE.test(value) ? `'${value}` : value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** One RFC 4180 field: quoted when it holds a quote, comma, line break or edge space. */
export function csvField(value: unknown): string {
  const text = cellText(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The data fields of all items, in the order they were first seen. */
export function csvColumns(items: readonly CsvItem[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const key of Object.keys(item.data)) seen.add(key);
  return [...seen];
}

/** The whole file: header line, then one line per item, CRLF-terminated (RFC 4180). */
export function collectedItemsToCsv(items: readonly CsvItem[]): string {
  const columns = csvColumns(items);
  const lines = [[...CSV_META_COLUMNS, ...columns].map(csvField).join(',')];
  for (const item of items) {
    const meta = [item.seq, item.type, item.sourceUrl];
    lines.push([...meta, ...columns.map((column) => item.data[column])].map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
