import { DEFAULT_INPUT_LIMITS, INPUT_LIMITS, type InputLimits } from '@tandem/contracts';
import { createIsomorphicCanvasFactory, getDocumentProxy } from 'unpdf';
import { trimLineEnds } from './decode-text';
import { ParseError } from './errors';
import type { HandlerResult } from './extract';
import { ocrPages, type PdfDocument } from './pdf-ocr';
import type { ExtractedPage } from './types';

/** Fewer characters than this per page means the page is most likely a scan (text as an image). */
const MIN_TEXT_PER_PAGE = 16;

const tidy = (text: string): string =>
  trimLineEnds(text)
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** PDF.js's verbosity for errors only: a hostile file's thousand warnings stay out of the logs. */
const ERRORS_ONLY = 0;

/**
 * Opens the PDF with PDF.js (unpdf's serverless build, no worker). Nothing in a PDF runs: this
 * build of PDF.js has no eval at all (PostScript functions compile to WebAssembly, so the old
 * `isEvalSupported` option is gone), JavaScript actions only run in the viewer's scripting
 * sandbox, which is never loaded here, and XFA forms stay off. Embedded images over
 * IMAGE_MAX_PIXELS are not decoded when a page is rendered.
 */
async function openPdf(bytes: Uint8Array, limits: InputLimits): Promise<PdfDocument> {
  const CanvasFactory = await createIsomorphicCanvasFactory(() => import('@napi-rs/canvas'));
  try {
    // A copy, because PDF.js transfers (detaches) the buffer it is given.
    return await getDocumentProxy(bytes.slice(), {
      CanvasFactory,
      maxImageSize: limits.imageMaxPixels,
      enableXfa: false,
      verbosity: ERRORS_ONLY,
    });
  } catch (error) {
    if ((error as Error).name === 'PasswordException') {
      throw new ParseError('PDF', 'it is password-protected.');
    }
    throw new ParseError('PDF', 'the file is damaged or cut short.');
  }
}

async function pageText(document: PdfDocument, number: number): Promise<string> {
  const content = await (await document.getPage(number)).getTextContent();
  return content.items
    .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
    .join('');
}

async function pdfTitle(document: PdfDocument): Promise<string | undefined> {
  try {
    const { info } = await document.getMetadata();
    const title = (info as { Title?: unknown }).Title;
    return typeof title === 'string' ? meaningfulPdfTitle(title) : undefined;
  } catch {
    return undefined;
  }
}

// What programs write into a PDF's Title when nobody gave one: the page a browser printed
// ("about:blank", a URL), a placeholder, or the source file's name. None of these names the
// document better than the uploaded file's own name, which the caller falls back to.
const PLACEHOLDER_TITLE =
  /^(?:about:\S*|(?:https?|file|data|blob):.*|untitled(?:[\s-]*\d*)?|document\s*\d*|new document\s*\d*|print|unknown|none|null|-+|\.+)$/i;
const FILE_NAME = /^[^\s/\\]*[/\\].*|.*\.(?:pdf|docx?|odt|rtf|txt|html?|xlsx?|pptx?|indd|tex|md)$/i;
// Office and similar producers prefix the source application: "Microsoft Word - Report.docx".
const PRODUCER_PREFIX =
  /^(?:microsoft (?:word|excel|powerpoint)|libreoffice \w+|pages|keynote)\s+-\s+/i;

/** The PDF's Title when it names the document, else undefined (the file name is used). */
export function meaningfulPdfTitle(raw: string): string | undefined {
  // Control characters and runs of spaces (some producers pad with NULs) are not part of a name.
  const title = raw
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const named = title.replace(PRODUCER_PREFIX, '').trim();
  if (named === '' || PLACEHOLDER_TITLE.test(named) || FILE_NAME.test(named)) return undefined;
  // Only digits and punctuation ("1", "---", "2024-01-02") says nothing a reader can use.
  if (!/\p{L}/u.test(named)) return undefined;
  return named.slice(0, 300);
}

/** The text layer of the first PDF_MAX_PAGES pages, with a warning when later ones are left out. */
async function readTextLayer(
  document: PdfDocument,
  limits: InputLimits,
): Promise<{ pages: ExtractedPage[]; warnings: string[] }> {
  const total = document.numPages;
  const count = Math.min(total, limits.pdfMaxPages);
  const pages: ExtractedPage[] = [];
  for (let number = 1; number <= count; number += 1) {
    try {
      pages.push({ number, text: tidy(await pageText(document, number)) });
    } catch {
      throw new ParseError('PDF', `page ${number} is damaged or missing.`);
    }
  }
  const warnings =
    total > count
      ? [
          `Read the first ${count.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} pages (${INPUT_LIMITS.pdfMaxPages.setting}).`,
        ]
      : [];
  return { pages, warnings };
}

/**
 * Text per page from the PDF's text layer, so citations can name a page. unpdf bundles a
 * serverless build of PDF.js (no worker) that runs the same in Node and edge; the canvas
 * (@napi-rs/canvas, prebuilt) renders pages without a text layer for OCR. Budgets: at most
 * PDF_MAX_PAGES pages read, PDF_MAX_OCR_PAGES of them by OCR, each rendered within
 * PDF_MAX_PAGE_PIXELS, all within OCR_MAX_SECONDS.
 */
export async function extractPdf(
  bytes: Uint8Array,
  { limits = DEFAULT_INPUT_LIMITS }: { limits?: InputLimits } = {},
): Promise<HandlerResult> {
  const document = await openPdf(bytes, limits);
  try {
    const { pages, warnings } = await readTextLayer(document, limits);
    const empty = pages
      .filter((page) => page.text.length < MIN_TEXT_PER_PAGE)
      .map((page) => page.number);
    warnings.push(...(await ocrPages(document, pages, empty, limits)));
    const markdown = pages
      .filter((page) => page.text)
      .map((page) => page.text)
      .join('\n\n');
    const title = await pdfTitle(document);
    return { markdown, pages, warnings, ...(title ? { title } : {}) };
  } finally {
    await document.loadingTask.destroy();
  }
}
