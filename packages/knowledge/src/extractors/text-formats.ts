import {
  DEFAULT_INPUT_LIMITS,
  describeLimit,
  InputTooComplexError,
  type InputLimits,
} from '@tandem/contracts';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseAllDocuments } from 'yaml';
import { decodeText, trimLineEnds } from './decode-text';
import { ParseError } from './errors';
import { structuredToMarkdown } from './structured';
import {
  checkJsonBudget,
  checkXmlBudget,
  checkYamlBudget,
  refuseXmlEntities,
} from './structured-budget';

export { ParseError } from './errors';
export { extractCsv } from './csv';

/** What a text-format extractor gives back; the dispatcher adds title and MIME type. */
export interface TextExtraction {
  markdown: string;
  warnings: string[];
  /** A title found in the content (a Markdown H1, the XML root), if any. */
  title?: string;
}

/** The budgets part of a handler's context, so these run on their own too. */
interface BudgetOptions {
  limits?: InputLimits;
}

const trimLines = (text: string): string =>
  trimLineEnds(text)
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

export function extractJson(
  bytes: Uint8Array,
  { limits = DEFAULT_INPUT_LIMITS }: BudgetOptions = {},
): TextExtraction {
  const { text, warnings } = decodeText(bytes);
  checkJsonBudget(text, limits);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ParseError('JSON', (error as Error).message);
  }
  return { markdown: structuredToMarkdown(value, 'json'), warnings };
}

/**
 * yaml reports its composer's stack overflow (deep flow collections) as a document error; the
 * first line of any other error is the message (the rest quotes the offending lines).
 */
function yamlError(message: string, limits: InputLimits): Error {
  if (/call stack/i.test(message)) {
    return new InputTooComplexError(
      'structuredMaxDepth',
      `The YAML file nests too deeply to be read; the limit is ${describeLimit('structuredMaxDepth', limits.structuredMaxDepth)}.`,
    );
  }
  return new ParseError('YAML', (message.split('\n', 1)[0] ?? message).replace(/:$/, ''));
}

/** yaml's guard against alias bombs ("billion laughs" in YAML), raised by toJS. */
const isAliasBomb = (error: unknown): boolean =>
  error instanceof ReferenceError && /alias/i.test(error.message);

export function extractYaml(
  bytes: Uint8Array,
  { limits = DEFAULT_INPUT_LIMITS }: BudgetOptions = {},
): TextExtraction {
  const { text, warnings } = decodeText(bytes);
  const documents = parseAllDocuments(text);
  const list = Array.isArray(documents) ? documents : [documents];
  const failed = list.flatMap((document) => document.errors)[0];
  if (failed) throw yamlError(failed.message, limits);
  for (const document of list) checkYamlBudget(document, limits);
  const values = list.map((document) => {
    try {
      return document.toJS() as unknown;
    } catch (error) {
      if (!isAliasBomb(error)) throw error;
      throw new ParseError(
        'YAML',
        'its aliases (*name) repeat anchored content more often than is safe to expand.',
      );
    }
  });
  const markdown = values.map((value) => structuredToMarkdown(value, 'yaml')).join('\n\n---\n\n');
  return { markdown, warnings };
}

export function extractXml(
  bytes: Uint8Array,
  { limits = DEFAULT_INPUT_LIMITS }: BudgetOptions = {},
): TextExtraction {
  const { text, warnings } = decodeText(bytes);
  refuseXmlEntities(text);
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new ParseError('XML', `${valid.err.msg} (line ${valid.err.line})`);
  checkXmlBudget(text, limits);
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
