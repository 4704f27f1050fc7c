import { describeLimit, INPUT_LIMITS, type InputLimits } from '@tandem/contracts';
import type { Canvas } from '@napi-rs/canvas';
import type { getDocumentProxy } from 'unpdf';
import { OcrEngine, ocrTimeWarning, ocrWarnings } from './ocr';
import { fitScale } from './ocr-image';
import type { ExtractedPage } from './types';

export type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

/** PDF points are 1/72 inch; 3× gives about 216 dpi, where tesseract reads body text well. */
const OCR_SCALE = 3;

/**
 * A rendered page is blank when fewer pixels than this differ from its background: less than
 * one printed character at 216 dpi (an "l" in 10 pt is about 150), more than stray dots.
 */
const MAX_INK_PIXELS = 64;
/** How far (of 255) a pixel's luminance must be from the background's to count as ink. */
const INK_CONTRAST = 48;

/**
 * Near-uniform pixels, found from a luminance histogram of the whole canvas in one pass (about
 * 40 ms at 16 MP): OCR of a blank page at 216 dpi takes a second or more and reads nothing.
 */
function isBlank(canvas: Canvas): boolean {
  const pixels = canvas.data();
  const histogram = new Uint32Array(256);
  for (let index = 0; index < pixels.length; index += 4) {
    const luminance =
      ((pixels[index] ?? 0) * 77 +
        (pixels[index + 1] ?? 0) * 150 +
        (pixels[index + 2] ?? 0) * 29) >>
      8;
    histogram[luminance] = (histogram[luminance] ?? 0) + 1;
  }
  let background = 0;
  for (let level = 1; level < 256; level += 1) {
    if ((histogram[level] ?? 0) > (histogram[background] ?? 0)) background = level;
  }
  let ink = 0;
  for (let level = 0; level < 256; level += 1) {
    if (Math.abs(level - background) > INK_CONTRAST) ink += histogram[level] ?? 0;
  }
  return ink < MAX_INK_PIXELS;
}

interface RenderedPage {
  /** Undefined when the page is blank. */
  png?: Uint8Array;
  /** Set when the page had to be rendered below OCR_SCALE to stay within PDF_MAX_PAGE_PIXELS. */
  reduced?: { width: number; height: number };
}

/** Draws the page on the canvas; false when the deadline passes first (the render is cancelled). */
async function draw(
  page: PdfPage,
  canvas: Canvas,
  viewport: ReturnType<PdfPage['getViewport']>,
  deadline: number,
): Promise<boolean> {
  const task = page.render({
    canvas: canvas as unknown as HTMLCanvasElement,
    canvasContext: canvas.getContext('2d') as unknown as CanvasRenderingContext2D,
    viewport,
  });
  const timer = setTimeout(() => task.cancel(), Math.max(0, deadline - Date.now()));
  try {
    await task.promise;
    return true;
  } catch (error) {
    if ((error as Error).name === 'RenderingCancelledException') return false;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Renders a page for OCR within PDF_MAX_PAGE_PIXELS; undefined when the deadline passes first. */
async function renderPage(
  document: PdfDocument,
  number: number,
  limits: InputLimits,
  deadline: number,
): Promise<RenderedPage | undefined> {
  const page = await document.getPage(number);
  const scale = fitScale(page.getViewport({ scale: 1 }), limits.pdfMaxPagePixels, OCR_SCALE);
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.floor(viewport.width));
  const height = Math.max(1, Math.floor(viewport.height));
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(width, height);
  try {
    if (!(await draw(page, canvas, viewport, deadline))) return undefined;
    const reduced = scale < OCR_SCALE ? { reduced: { width, height } } : {};
    if (isBlank(canvas)) return reduced;
    return { png: new Uint8Array(await canvas.encode('png')), ...reduced };
  } finally {
    // Frees the surface (64 MB at 16 MP) now, not at a later GC, before tesseract needs memory.
    canvas.width = 0;
    canvas.height = 0;
    page.cleanup();
  }
}

const pageList = (numbers: readonly number[]): string => numbers.join(', ');

/** A run of OCR over a document's pages, within OCR_MAX_SECONDS for them all. */
class PageReader {
  readonly warnings: string[] = [];
  private engine: OcrEngine | undefined;
  private readonly deadline: number;

  constructor(
    private readonly document: PdfDocument,
    private readonly limits: InputLimits,
  ) {
    this.deadline = Date.now() + limits.ocrMaxSeconds * 1000;
  }

  /** The page's text, '' when blank or unreadable; undefined when time ran out. */
  async read(number: number): Promise<string | undefined> {
    if (Date.now() >= this.deadline) return undefined;
    const rendered = await renderPage(this.document, number, this.limits, this.deadline);
    if (!rendered) return undefined;
    // A page drawn smaller than OCR wants is said, blank or not: small print may have been lost.
    if (rendered.reduced) {
      const { width, height } = rendered.reduced;
      this.warnings.push(
        `Page ${number}: rendered at ${width.toLocaleString('en-US')} × ${height.toLocaleString('en-US')} pixels for OCR, under ${describeLimit('pdfMaxPagePixels', this.limits.pdfMaxPagePixels)}.`,
      );
    }
    if (!rendered.png) {
      this.warnings.push(`Page ${number}: OCR found no text in the image.`);
      return '';
    }
    // Started on the first page with ink, so a PDF of blank pages never loads tesseract.
    this.engine ??= await OcrEngine.start();
    const result = await this.engine.read(rendered.png, this.deadline);
    if (!result) return undefined;
    this.warnings.push(...ocrWarnings(result).map((warning) => `Page ${number}: ${warning}`));
    return result.text;
  }

  async close(): Promise<void> {
    await this.engine?.close();
  }
}

/**
 * Scanned pages carry their text only as an image: render them and read them by OCR. At most
 * PDF_MAX_OCR_PAGES pages are read, and none once OCR_MAX_SECONDS have passed; the pages left
 * out are named in a warning. Returns the warnings; the pages' text is filled in place.
 */
export async function ocrPages(
  document: PdfDocument,
  pages: ExtractedPage[],
  numbers: number[],
  limits: InputLimits,
): Promise<string[]> {
  const chosen = numbers.slice(0, limits.pdfMaxOcrPages);
  const reader = new PageReader(document, limits);
  let stopped: number[] = [];
  try {
    for (const [index, number] of chosen.entries()) {
      const text = await reader.read(number);
      if (text === undefined) {
        stopped = chosen.slice(index);
        break;
      }
      const page = pages[number - 1];
      if (page && text) page.text = text;
    }
  } finally {
    await reader.close();
  }
  const warnings = reader.warnings;
  const done = chosen.slice(0, chosen.length - stopped.length);
  const read = done.filter((number) => pages[number - 1]?.text);
  if (read.length > 0)
    warnings.unshift(`Page(s) ${pageList(read)} had no text layer and were read by OCR.`);
  if (stopped.length > 0) {
    warnings.push(ocrTimeWarning(limits, `page(s) ${pageList(stopped)} were not read`));
  }
  const skipped = numbers.slice(chosen.length);
  if (skipped.length > 0) {
    warnings.push(
      `Read ${chosen.length} of ${numbers.length} pages without a text layer by OCR (${INPUT_LIMITS.pdfMaxOcrPages.setting}); page(s) ${pageList(skipped)} were left out.`,
    );
  }
  return warnings;
}
