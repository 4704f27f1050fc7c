import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import type { HandlerResult } from './extract';
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

/**
 * Text per page from the PDF's text layer, so citations can name a page. unpdf bundles a
 * serverless build of PDF.js (no canvas, no worker) that runs the same in Node and edge.
 * The bytes are copied because PDF.js transfers (detaches) the buffer it is given.
 */
export async function extractPdf(bytes: Uint8Array): Promise<HandlerResult> {
  const document = await getDocumentProxy(bytes.slice());
  const { text } = await extractText(document, { mergePages: false });
  const pages: ExtractedPage[] = text.map((pageText, index) => ({
    number: index + 1,
    text: tidy(pageText),
  }));
  const warnings: string[] = [];
  const empty = pages
    .filter((page) => page.text.length < MIN_TEXT_PER_PAGE)
    .map((page) => page.number);
  if (empty.length > 0) {
    warnings.push(
      `Little or no text layer on page(s) ${empty.join(', ')}: scanned pages need OCR.`,
    );
  }
  const markdown = pages
    .filter((page) => page.text)
    .map((page) => page.text)
    .join('\n\n');
  const title = await pdfTitle(bytes);
  return { markdown, pages, warnings, ...(title ? { title } : {}) };
}
