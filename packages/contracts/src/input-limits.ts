// Budgets on untrusted input: what the server reads of an uploaded file, a page's
// HTML or an output schema before the expensive step. Each budget is a server setting (the env
// variable named here, documented in .env.example and docs/security-operations.md); a refusal
// names the limit and its setting, so whoever meets it knows what to change. Kept in contracts
// because the same numbers are the server's configuration, the parsers' checks and the API's
// documented answers.

interface LimitSpec {
  /** The environment variable that sets it. */
  setting: string;
  default: number;
  /** How a message names the quantity: "pages", "MB". */
  unit: string;
  /** True: past the limit the work is cut and the answer says so in `warnings`; false: 422. */
  partial: boolean;
  description: string;
}

export const INPUT_LIMITS = {
  zipMaxUncompressedMb: {
    setting: 'ZIP_MAX_UNCOMPRESSED_MB',
    default: 100,
    unit: 'MB',
    partial: false,
    description:
      'Bytes a ZIP-based file (DOCX) may unpack to, counted while it is inflated as a stream.',
  },
  zipMaxRatio: {
    setting: 'ZIP_MAX_RATIO',
    default: 100,
    unit: '×',
    partial: false,
    description: 'How many times its own size a ZIP-based file may unpack to (zip bombs).',
  },
  docxMaxXmlMb: {
    setting: 'DOCX_MAX_XML_MB',
    default: 5,
    unit: 'MB',
    partial: false,
    description:
      "A Word document's text and markup (its XML parts), which the converter holds many times over in memory (about 75 MB and a second per MB).",
  },
  pdfMaxPages: {
    setting: 'PDF_MAX_PAGES',
    default: 500,
    unit: 'pages',
    partial: true,
    description: 'Pages of a PDF read as text; later pages are left out with a warning.',
  },
  pdfMaxOcrPages: {
    setting: 'PDF_MAX_OCR_PAGES',
    default: 20,
    unit: 'pages',
    partial: true,
    description: 'Pages of one PDF without a text layer that are rendered and read by OCR.',
  },
  pdfMaxPagePixels: {
    setting: 'PDF_MAX_PAGE_PIXELS',
    default: 16_000_000,
    unit: 'pixels',
    partial: true,
    description: 'Pixels a PDF page is rendered to for OCR; larger pages are rendered smaller.',
  },
  imageMaxPixels: {
    setting: 'IMAGE_MAX_PIXELS',
    default: 50_000_000,
    unit: 'pixels',
    partial: false,
    description:
      'Pixels an image may declare (width × height, read from its header before decoding).',
  },
  ocrMaxSeconds: {
    setting: 'OCR_MAX_SECONDS',
    default: 60,
    unit: 's',
    partial: true,
    description: 'OCR time for one document; pages not read by then are left out with a warning.',
  },
  csvMaxRows: {
    setting: 'CSV_MAX_ROWS',
    default: 100_000,
    unit: 'rows',
    partial: true,
    description: 'Rows of a CSV file read; later rows are left out with a warning.',
  },
  csvMaxColumns: {
    setting: 'CSV_MAX_COLUMNS',
    default: 1_000,
    unit: 'columns',
    partial: false,
    description: 'Columns of a CSV file.',
  },
  structuredMaxDepth: {
    setting: 'STRUCTURED_MAX_DEPTH',
    default: 64,
    unit: 'levels',
    partial: false,
    description: 'Nesting of a JSON, YAML or XML file, and of a JSON request body.',
  },
  structuredMaxNodes: {
    setting: 'STRUCTURED_MAX_NODES',
    default: 1_000_000,
    unit: 'values',
    partial: false,
    description: 'Values (or XML elements) in a JSON, YAML or XML file.',
  },
  htmlMaxMb: {
    setting: 'HTML_MAX_MB',
    default: 8,
    unit: 'MB',
    partial: false,
    description: 'Size of an HTML page or file parsed on the server.',
  },
  htmlMaxDepth: {
    setting: 'HTML_MAX_DEPTH',
    default: 512,
    unit: 'levels',
    partial: false,
    description:
      'Element nesting of an HTML page (as browsers cap it), counted before any DOM is built.',
  },
  htmlMaxElements: {
    setting: 'HTML_MAX_ELEMENTS',
    default: 200_000,
    unit: 'elements',
    partial: false,
    description: 'Elements of an HTML page, counted before any DOM is built.',
  },
  schemaMaxDepth: {
    setting: 'SCHEMA_MAX_DEPTH',
    default: 12,
    unit: 'levels',
    partial: false,
    description: 'Nesting of an extraction outputSchema (objects in arrays in objects…).',
  },
  schemaMaxNodes: {
    setting: 'SCHEMA_MAX_NODES',
    default: 1_000,
    unit: 'schemas',
    partial: false,
    description: 'Schemas (properties, items…) in one extraction outputSchema.',
  },
} as const satisfies Record<string, LimitSpec>;

export type InputLimitName = keyof typeof INPUT_LIMITS;
export type InputLimits = Record<InputLimitName, number>;

export const DEFAULT_INPUT_LIMITS: InputLimits = Object.fromEntries(
  Object.entries(INPUT_LIMITS).map(([name, spec]) => [name, spec.default]),
) as InputLimits;

/** "1,000,000 pages", "100×": a quantity in a limit's unit, thousands marked. */
export function formatAmount(name: InputLimitName, value: number): string {
  const number = value.toLocaleString('en-US', { maximumFractionDigits: 1 });
  const { unit } = INPUT_LIMITS[name];
  return unit === '×' ? `${number}×` : `${number} ${unit}`;
}

/** "500 pages (PDF_MAX_PAGES)": how every message names a limit. */
export const describeLimit = (name: InputLimitName, value: number): string =>
  `${formatAmount(name, value)} (${INPUT_LIMITS[name].setting})`;

/** What a job over the worker pool's own budgets ran into (PARSE_WORKER_HEAP_MB, PARSE_TIMEOUT_SECONDS). */
export type PoolLimitName = 'parseHeapMb' | 'parseSeconds';

/**
 * Input over a budget that cannot be cut to a useful part: answered 422 INPUT_TOO_COMPLEX with
 * this message, which says what was found and names the limit and its setting. Matched by name
 * as well as class where it crosses a bundle or a worker thread.
 */
export class InputTooComplexError extends Error {
  override readonly name = 'InputTooComplexError';
  constructor(
    readonly limit: InputLimitName | PoolLimitName,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Throws InputTooComplexError when `found` is over the limit, with a message such as
 * "The archive unpacks to 1,024 MB; the limit is 100 MB (ZIP_MAX_UNCOMPRESSED_MB)."
 */
export function checkLimit(
  limits: InputLimits,
  name: InputLimitName,
  found: number,
  what: string,
): void {
  const limit = limits[name];
  if (found <= limit) return;
  throw new InputTooComplexError(
    name,
    `${what} ${formatAmount(name, found)}; the limit is ${describeLimit(name, limit)}.`,
  );
}

/**
 * How deep `text`'s arrays and objects nest, read as JSON text without parsing it, stopping as
 * soon as it passes `stopAbove` (then `stopAbove + 1`). Brackets inside strings do not count.
 * A cheap look before JSON.parse and the recursive code after it (validators, converters).
 */
export function jsonNesting(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
