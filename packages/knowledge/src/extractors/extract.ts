import { DEFAULT_INPUT_LIMITS, type InputLimits } from '@tandem/contracts';
import { detectType } from './detect';
import { extractDocx } from './docx';
import { toExtractionError } from './errors';
import { ocrImage } from './ocr';
import { extractPdf } from './pdf';
import {
  extractCsv,
  extractJson,
  extractMarkdown,
  extractPlainText,
  extractXml,
  extractYaml,
  type TextExtraction,
} from './text-formats';
import {
  type DetectedType,
  type DocumentKind,
  type ExtractedDocument,
  type ExtractedPage,
  type ExtractInput,
  UnsupportedFormatError,
} from './types';

/** What a format handler returns; the dispatcher fills in title fallback and MIME type. */
export interface HandlerResult extends TextExtraction {
  pages?: ExtractedPage[];
}

/** What a handler is told besides the bytes: the detected type, the file's name, the budgets. */
export type HandlerContext = DetectedType &
  ExtractInput & {
    /** Budgets on untrusted input; a handler checks them before its expensive step. */
    limits: InputLimits;
  };

export type FormatHandler = (
  bytes: Uint8Array,
  context: HandlerContext,
) => HandlerResult | Promise<HandlerResult>;

/**
 * Formats whose extraction lives elsewhere or depends on configuration: HTML goes to the
 * main-content extractor, audio and video to the configured model's transcription, office
 * formats to a Gotenberg service (`gotenbergHandler`). Without a handler those formats fail
 * with an error that says why; images default to offline OCR.
 */
export type InjectedKind = 'html' | 'image' | 'audio' | 'video' | 'office';

export interface ExtractOptions extends ExtractInput {
  handlers?: Partial<Record<InjectedKind, FormatHandler>>;
  /** The server's budgets (from its settings); DEFAULT_INPUT_LIMITS when not given. */
  limits?: InputLimits;
}

const BUILT_IN: Partial<Record<DocumentKind, FormatHandler>> = {
  markdown: extractMarkdown,
  text: extractPlainText,
  json: extractJson,
  csv: extractCsv,
  xml: extractXml,
  yaml: extractYaml,
  docx: extractDocx,
  pdf: extractPdf,
};

/** OCR runs offline with bundled language data, so images work without configuration. */
const INJECTED_DEFAULTS: Partial<Record<InjectedKind, FormatHandler>> = { image: ocrImage };

const MISSING: Record<InjectedKind, string> = {
  html: 'use the main-content extractor',
  image: 'no OCR handler configured',
  audio: 'the configured model has no transcription',
  video: 'the configured model has no transcription',
  office:
    'set GOTENBERG_URL to a Gotenberg service (docker compose --profile office up) to convert office documents',
};

const isInjected = (kind: DocumentKind): kind is InjectedKind => kind in MISSING;

function handlerFor(detected: DetectedType, options: ExtractOptions): FormatHandler {
  const { kind, mimeType } = detected;
  if (isInjected(kind)) {
    const injected = options.handlers?.[kind] ?? INJECTED_DEFAULTS[kind];
    if (injected) return injected;
    throw new UnsupportedFormatError(`${mimeType} (${kind}): ${MISSING[kind]}`);
  }
  const builtIn = BUILT_IN[kind];
  if (!builtIn) throw new UnsupportedFormatError(`${mimeType} (${kind})`);
  return builtIn;
}

const baseName = (fileName: string | undefined): string | undefined =>
  fileName
    ?.split(/[\\/]/)
    .pop()
    ?.replace(/\.[^.]+$/, '')
    .trim() || undefined;

/** How messages name a format ("Could not parse DOCX: …"). */
const FORMAT_NAMES: Record<DocumentKind, string> = {
  pdf: 'PDF',
  docx: 'DOCX',
  office: 'office document',
  html: 'HTML',
  markdown: 'Markdown',
  text: 'text',
  json: 'JSON',
  csv: 'CSV',
  xml: 'XML',
  yaml: 'YAML',
  image: 'image',
  audio: 'audio',
  video: 'video',
};

async function runHandler(
  bytes: Uint8Array,
  detected: DetectedType,
  options: ExtractOptions,
  limits: InputLimits,
): Promise<HandlerResult> {
  const handler = handlerFor(detected, options);
  try {
    return await handler(bytes, {
      ...detected,
      ...(options.fileName ? { fileName: options.fileName } : {}),
      ...(options.tenantId ? { tenantId: options.tenantId } : {}),
      limits,
    });
  } catch (error) {
    throw toExtractionError(error, FORMAT_NAMES[detected.kind], limits);
  }
}

/**
 * Turns a file's bytes into Markdown, choosing the extractor by the detected type. Whatever the
 * bytes, it throws only ParseError (OfficeConversionError among them), UnsupportedFormatError or
 * InputTooComplexError: a parser's own failure becomes one of those, so no upload answers 500.
 */
export async function extractDocument(
  bytes: Uint8Array,
  options: ExtractOptions = {},
): Promise<ExtractedDocument> {
  const limits = options.limits ?? DEFAULT_INPUT_LIMITS;
  let detected: DetectedType;
  try {
    detected = detectType(bytes, options);
  } catch (error) {
    throw toExtractionError(error, 'file', limits);
  }
  const result = await runHandler(bytes, detected, options, limits);
  const title = result.title ?? baseName(options.fileName) ?? 'Untitled';
  return {
    title,
    markdown: result.markdown,
    ...(result.pages ? { pages: result.pages } : {}),
    mimeType: detected.mimeType,
    warnings: result.warnings,
  };
}
