import { extractText, getDocumentProxy, getMeta, renderPageAsImage } from 'unpdf';
import type { HandlerResult } from './extract';
import { ocrImage } from './ocr';
import type { ExtractedPage } from './types';

/** Fewer characters than this per page means the page is most likely a scan (text as an image). */
const MIN_TEXT_PER_PAGE = 16;

const tidy = (text: string): string =>
  text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

async function pdfTitle(bytes: Uint8Array): Promise<string | undefined> {
  try {
    const { info } = await getMeta(bytes.slice());
    const title = (info as { Title?: unknown }).Title;
    return typeof title === 'string' && title.trim() ? title.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** PDF points are 1/72 inch; 3× gives about 216 dpi, where tesseract reads body text well. */
const OCR_SCALE = 3;

/** Scanned pages carry their text only as an image: render them and read them by OCR. */
async function ocrPages(
  bytes: Uint8Array,
  pages: ExtractedPage[],
  numbers: number[],
): Promise<string[]> {
  const warnings: string[] = [];
  for (const number of numbers) {
    const png = await renderPageAsImage(bytes.slice(), number, {
      canvasImport: () => import('@napi-rs/canvas'),
      scale: OCR_SCALE,
    });
    const result = await ocrImage(new Uint8Array(png));
    const page = pages[number - 1];
    if (page && result.markdown) page.text = result.markdown;
    warnings.push(...result.warnings.map((warning) => `Page ${number}: ${warning}`));
  }
  const read = numbers.filter((number) => pages[number - 1]?.text);
  if (read.length > 0)
    warnings.unshift(`Page(s) ${read.join(', ')} had no text layer and were read by OCR.`);
  return warnings;
}

/**
 * Text per page from the PDF's text layer, so citations can name a page. unpdf bundles a
 * serverless build of PDF.js (no worker) that runs the same in Node and edge; the canvas
 * (@napi-rs/canvas, prebuilt) is loaded only to render scanned pages for OCR.
 * The bytes are copied because PDF.js transfers (detaches) the buffer it is given.
 */
export async function extractPdf(bytes: Uint8Array): Promise<HandlerResult> {
  const document = await getDocumentProxy(bytes.slice());
  const { text } = await extractText(document, { mergePages: false });
  const pages: ExtractedPage[] = text.map((pageText, index) => ({
    number: index + 1,
    text: tidy(pageText),
  }));
  const empty = pages
    .filter((page) => page.text.length < MIN_TEXT_PER_PAGE)
    .map((page) => page.number);
  const warnings = await ocrPages(bytes, pages, empty);
  const markdown = pages
    .filter((page) => page.text)
    .map((page) => page.text)
    .join('\n\n');
  const title = await pdfTitle(bytes);
  return { markdown, pages, warnings, ...(title ? { title } : {}) };
}
