import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseAllDocuments } from 'yaml';
import { decodeText } from './decode-text';
import { structuredToMarkdown } from './structured';

/** What a text-format extractor gives back; the dispatcher adds title and MIME type. */
export interface TextExtraction {
  markdown: string;
  warnings: string[];
  /** A title found in the content (a Markdown H1, the XML root), if any. */
  title?: string;
}

export class ParseError extends Error {
  constructor(format: string, detail: string) {
    super(`Could not parse ${format}: ${detail}`);
    this.name = 'ParseError';
  }
}

const trimLines = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

export function extractMarkdown(bytes: Uint8Array): TextExtraction {
  const { text, warnings } = decodeText(bytes);
  const markdown = trimLines(text);
  const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
  return { markdown, warnings, ...(title ? { title } : {}) };
}

export function extractPlainText(bytes: Uint8Array): TextExtraction {
  const { text, warnings } = decodeText(bytes);
  return { markdown: trimLines(text), warnings };
}

export function extractJson(bytes: Uint8Array): TextExtraction {
  const { text, warnings } = decodeText(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ParseError('JSON', (error as Error).message);
  }
  return { markdown: structuredToMarkdown(value, 'json'), warnings };
}

export function extractYaml(bytes: Uint8Array): TextExtraction {
  const { text, warnings } = decodeText(bytes);
  const documents = parseAllDocuments(text);
  const list = Array.isArray(documents) ? documents : [documents];
  const failed = list.flatMap((document) => document.errors);
  if (failed[0]) throw new ParseError('YAML', failed[0].message);
  const markdown = list
    .map((document) => structuredToMarkdown(document.toJS() as unknown, 'yaml'))
    .join('\n\n---\n\n');
  return { markdown, warnings };
}

export function extractXml(bytes: Uint8Array): TextExtraction {
  const { text, warnings } = decodeText(bytes);
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new ParseError('XML', `${valid.err.msg} (line ${valid.err.line})`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    ignoreDeclaration: true,
  });
  const parsed = parser.parse(text) as Record<string, unknown>;
  const [root, body] = Object.entries(parsed).find(([key]) => !key.startsWith('?')) ?? ['', parsed];
  return {
    markdown: structuredToMarkdown(body, 'yaml'),
    warnings,
    ...(root ? { title: root } : {}),
  };
}

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

const cell = (value: string): string =>
  value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, '<br>');

export function extractCsv(bytes: Uint8Array): TextExtraction {
  const { text, warnings } = decodeText(bytes);
  let rows: string[][];
  try {
    rows = parseCsv(text, {
      delimiter: guessDelimiter(text),
      relax_column_count: true,
      skip_empty_lines: true,
    });
  } catch (error) {
    throw new ParseError('CSV', (error as Error).message);
  }
  const [header, ...body] = rows;
  if (!header) return { markdown: '', warnings: [...warnings, 'The CSV file has no rows.'] };
  const width = Math.max(...rows.map((row) => row.length));
  if (rows.some((row) => row.length !== width))
    warnings.push('Rows have different numbers of columns.');
  const line = (row: string[]) =>
    `| ${Array.from({ length: width }, (_, index) => cell(row[index] ?? '')).join(' | ')} |`;
  const separator = `| ${Array.from({ length: width }, () => '---').join(' | ')} |`;
  return { markdown: [line(header), separator, ...body.map(line)].join('\n'), warnings };
}
