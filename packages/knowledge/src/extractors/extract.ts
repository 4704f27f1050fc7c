import type { InputLimits } from '@tandem/contracts';
import { detectType } from './detect';
import { extractDocx } from './docx';
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

export type FormatHandler = (
  bytes: Uint8Array,
  detected: DetectedType & ExtractInput,
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
  /** Budgets on the input (DEFAULT_INPUT_LIMITS when absent). */
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

/** Turns a file's bytes into Markdown, choosing the extractor by the detected type. */
export async function extractDocument(
  bytes: Uint8Array,
  options: ExtractOptions = {},
): Promise<ExtractedDocument> {
  const detected = detectType(bytes, options);
  const handler = handlerFor(detected, options);
  const result = await handler(bytes, {
    ...detected,
    ...(options.fileName ? { fileName: options.fileName } : {}),
  });
  const title = result.title ?? baseName(options.fileName) ?? 'Untitled';
  return {
    title,
    markdown: result.markdown,
    ...(result.pages ? { pages: result.pages } : {}),
    mimeType: detected.mimeType,
    warnings: result.warnings,
  };
}
