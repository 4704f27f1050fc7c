import { DEFAULT_INPUT_LIMITS } from '@tandem/contracts';
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ParseError } from './errors';
import { extractDocument } from './extract';
import { fitScale } from './ocr-image';
import { refusal } from './hostile-fixtures';

/** Pages of the given size, each with its lines drawn as text (a text layer), none when empty. */
async function buildPdf(
  pages: { size?: [number, number]; lines?: string[] }[],
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const { size, lines = [] } of pages) {
    const [width, height] = size ?? [595, 842];
    const page = pdf.addPage([width, height]);
    lines.forEach((line, index) =>
      page.drawText(line, { x: 40, y: height - 60 - index * 20, size: 12, font }),
    );
  }
  return pdf.save();
}

const textPage = (number: number) => ({ lines: [`This is page number ${number} of the report.`] });

describe('PDF pages within PDF_MAX_PAGES and PDF_MAX_OCR_PAGES', () => {
  it('reads the first PDF_MAX_PAGES pages and names the setting for the rest', async () => {
    const bytes = await buildPdf(Array.from({ length: 12 }, (_, index) => textPage(index + 1)));
    const result = await extractDocument(bytes, {
      fileName: 'long.pdf',
      limits: { ...DEFAULT_INPUT_LIMITS, pdfMaxPages: 5 },
    });
    expect(result.pages?.map((page) => page.number)).toEqual([1, 2, 3, 4, 5]);
    expect(result.markdown).toContain('page number 5 of');
    expect(result.markdown).not.toContain('page number 6 of');
    expect(result.warnings).toEqual(['Read the first 5 of 12 pages (PDF_MAX_PAGES).']);
  });

  it('renders 20 blank pages, finds them blank and runs no OCR', { timeout: 60_000 }, async () => {
    const bytes = await buildPdf(Array.from({ length: 20 }, () => ({})));
    expect(bytes.length).toBeLessThan(4_000);
    const result = await extractDocument(bytes, { fileName: 'blank.pdf' });
    // Before: each page rendered at 3× and OCR'd, 40–50 s; the blank check is a pass over pixels.
    expect(result.markdown).toBe('');
    expect(result.warnings).toEqual(
      Array.from(
        { length: 20 },
        (_, index) => `Page ${index + 1}: OCR found no text in the image.`,
      ),
    );
  });

  it('reads at most PDF_MAX_OCR_PAGES pages by OCR and names the rest', async () => {
    const bytes = await buildPdf([textPage(1), {}, {}, {}]);
    const result = await extractDocument(bytes, {
      fileName: 'scans.pdf',
      limits: { ...DEFAULT_INPUT_LIMITS, pdfMaxOcrPages: 1 },
    });
    expect(result.markdown).toContain('page number 1');
    expect(result.warnings).toEqual([
      'Page 2: OCR found no text in the image.',
      'Read 1 of 3 pages without a text layer by OCR (PDF_MAX_OCR_PAGES); page(s) 3, 4 were left out.',
    ]);
  });

  it('stops OCR when OCR_MAX_SECONDS are used up, keeping the text layer', async () => {
    const bytes = await buildPdf([textPage(1), {}, {}]);
    const result = await extractDocument(bytes, {
      fileName: 'slow.pdf',
      limits: { ...DEFAULT_INPUT_LIMITS, ocrMaxSeconds: 0 },
    });
    expect(result.markdown).toContain('page number 1');
    expect(result.warnings).toEqual([
      'OCR stopped after 0 s (OCR_MAX_SECONDS): page(s) 2, 3 were not read.',
    ]);
  });
});

describe('PDF page rendering within PDF_MAX_PAGE_PIXELS', () => {
  it('renders a 5000 × 5000 pt page within the pixel budget, not at 15000 × 15000', async () => {
    const bytes = await buildPdf([{ size: [5000, 5000] }]);
    expect(bytes.length).toBeLessThan(1_000);
    // Before: a 15,000 × 15,000 canvas, 28 s and +1.4 GB.
    const result = await extractDocument(bytes, { fileName: 'poster.pdf' });
    expect(result.warnings).toEqual([
      'Page 1: rendered at 4,000 × 4,000 pixels for OCR, under 16,000,000 pixels (PDF_MAX_PAGE_PIXELS).',
      'Page 1: OCR found no text in the image.',
    ]);
  });

  it('scales big pages down to the budget and leaves small ones at 3×', () => {
    const budget = DEFAULT_INPUT_LIMITS.pdfMaxPagePixels;
    const poster = fitScale({ width: 5000, height: 5000 }, budget, 3);
    expect(5000 * poster * (5000 * poster)).toBeLessThanOrEqual(budget + 1);
    expect(Math.round(5000 * poster)).toBe(4000);
    expect(fitScale({ width: 595, height: 842 }, budget, 3)).toBe(3);
  });
});

describe('PDF: damaged files and scripts', () => {
  it('refuses a truncated PDF with a plain parse error', async () => {
    const bytes = await buildPdf([textPage(1), textPage(2)]);
    const error = await refusal(
      extractDocument(bytes.slice(0, Math.floor(bytes.length / 2)), { fileName: 'cut.pdf' }),
    );
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toMatch(
      /^Could not parse PDF: (the file is damaged|page \d+ is damaged)/,
    );
  });

  it('refuses bytes that only start like a PDF', async () => {
    const bytes = new TextEncoder().encode(`%PDF-1.7\n${'garbage '.repeat(100)}`);
    const error = await refusal(extractDocument(bytes, { fileName: 'fake.pdf' }));
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe('Could not parse PDF: the file is damaged or cut short.');
  });

  it('reads a PDF with JavaScript actions without running any of it', async () => {
    const marker = '__tandemPdfScriptRan';
    const script = `globalThis.${marker} = true; app.alert("ran");`;
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([400, 300]);
    page.drawText('A form with scripts in it.', { x: 40, y: 250, size: 12, font });
    pdf.addJavaScript('onOpen', script);
    const action = pdf.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of(script) });
    pdf.catalog.set(PDFName.of('OpenAction'), action);
    page.node.set(PDFName.of('AA'), pdf.context.obj({ O: action }));
    const result = await extractDocument(await pdf.save(), { fileName: 'scripted.pdf' });
    expect(result.markdown).toBe('A form with scripts in it.');
    expect(marker in globalThis).toBe(false);
  });
});
