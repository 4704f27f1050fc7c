import {
  checkLimit,
  DEFAULT_INPUT_LIMITS,
  INPUT_LIMITS,
  type InputLimits,
} from '@tandem/contracts';
import { parse as parseCsv } from 'csv-parse/sync';
import { decodeText } from './decode-text';
import { ParseError } from './errors';
import type { TextExtraction } from './text-formats';

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** csv-parse has no delimiter detection; the one most frequent in the first line is right in practice. */
function guessDelimiter(text: string): string {
  const firstLine = text.split('\n', 1)[0] ?? '';
  const counts = DELIMITERS.map((delimiter) => ({
    delimiter,
    count: firstLine.split(delimiter).length,
  }));
  return counts.reduce((best, next) => (next.count > best.count ? next : best)).delimiter;
}

interface CsvShape {
  /** Non-empty records, the header included. */
  records: number;
  /** Fields of the widest record. */
  columns: number;
}

const QUOTE = 0x22;
const NEWLINE = 0x0a;

/**
 * Records and the widest record, from one pass that counts delimiters outside quotes (a doubled
 * quote toggles twice, so escapes need no care). It runs before csv-parse, which builds a whole
 * record before anyone can look at it: a 25 MB line of commas would be 25 million fields.
 */
function measure(text: string, delimiter: string): CsvShape {
  const separator = delimiter.charCodeAt(0);
  let quoted = false;
  let fields = 1;
  let filled = false;
  let records = 0;
  let columns = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) quoted = !quoted;
    if (quoted) {
      filled = true;
    } else if (code === NEWLINE) {
      if (filled) {
        records += 1;
        columns = Math.max(columns, fields);
      }
      fields = 1;
      filled = false;
    } else {
      if (code === separator) fields += 1;
      filled = true;
    }
  }
  if (filled) {
    records += 1;
    columns = Math.max(columns, fields);
  }
  return { records, columns };
}

const cell = (value: string): string =>
  value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, '<br>');

/** The widest row, by a loop: spreading a million row lengths into Math.max overflows the stack. */
function widest(rows: readonly string[][]): number {
  let width = 0;
  for (const row of rows) if (row.length > width) width = row.length;
  return width;
}

function parseRows(text: string, delimiter: string, to: number): string[][] {
  try {
    return parseCsv(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      to,
    }) as string[][];
  } catch (error) {
    throw new ParseError('CSV', (error as Error).message);
  }
}

/**
 * A CSV file as a GFM table, its first row as the header. At most CSV_MAX_ROWS rows after the
 * header are read (the rest left out, with a warning); a row wider than CSV_MAX_COLUMNS is
 * refused, since a table that wide is no longer text a reader or a chunk can use.
 */
export function extractCsv(
  bytes: Uint8Array,
  { limits = DEFAULT_INPUT_LIMITS }: { limits?: InputLimits } = {},
): TextExtraction {
  const { text, warnings } = decodeText(bytes);
  const delimiter = guessDelimiter(text);
  const shape = measure(text, delimiter);
  checkLimit(limits, 'csvMaxColumns', shape.columns, 'The file has a row of');
  const maxRows = limits.csvMaxRows;
  // One record more than is kept tells whether anything was left out.
  const rows = parseRows(text, delimiter, maxRows + 2);
  const [header, ...rest] = rows;
  if (!header) return { markdown: '', warnings: [...warnings, 'The CSV file has no rows.'] };
  const body = rest.slice(0, maxRows);
  if (rest.length > maxRows) {
    const total = Math.max(shape.records - 1, rest.length).toLocaleString('en-US');
    warnings.push(
      `Read the first ${maxRows.toLocaleString('en-US')} of ${total} rows (${INPUT_LIMITS.csvMaxRows.setting}).`,
    );
  }
  const kept = [header, ...body];
  const width = widest(kept);
  checkLimit(limits, 'csvMaxColumns', width, 'The file has a row of');
  if (kept.some((row) => row.length !== width))
    warnings.push('Rows have different numbers of columns.');
  const line = (row: string[]) =>
    `| ${Array.from({ length: width }, (_, index) => cell(row[index] ?? '')).join(' | ')} |`;
  const separator = `| ${Array.from({ length: width }, () => '---').join(' | ')} |`;
  return { markdown: [line(header), separator, ...body.map(line)].join('\n'), warnings };
}
