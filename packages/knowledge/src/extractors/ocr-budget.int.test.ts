import { createCanvas } from '@napi-rs/canvas';
import { DEFAULT_INPUT_LIMITS } from '@tandem/contracts';
import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParseError } from './errors';
import { extractDocument } from './extract';
import { isAllowedError, mutate, mutations } from './mutations';
import { refusal } from './hostile-fixtures';

/** Black text on white, drawn with a system font: a "scan" made by the test, none checked in. */
function textPng(width: number, height: number, lines: string[], fontPx: number): Uint8Array {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000';
  context.font = `${fontPx}px "DejaVu Sans", "Liberation Sans", Arial, sans-serif`;
  lines.forEach((line, index) => context.fillText(line, fontPx, fontPx * 2 + index * fontPx * 1.8));
  return new Uint8Array(canvas.toBuffer('image/png'));
}

async function scannedPdf(png: Uint8Array, size: [number, number]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(png);
  pdf.addPage(size).drawImage(image, { x: 0, y: 0, width: size[0], height: size[1] });
  return pdf.save();
}

/** Errors that escaped every promise: before, a corrupt PNG raised one inside tesseract.js. */
const escaped: unknown[] = [];
const record = (error: unknown) => escaped.push(error);

beforeAll(() => {
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
});

afterAll(() => {
  process.off('uncaughtException', record);
  process.off('unhandledRejection', record);
});

const LINES = ['Patient consent form', 'Signed on Tuesday morning'];

describe('images: damaged files fail as ParseError, never as a crash', () => {
  it('refuses a PNG cut short after its header', { timeout: 60_000 }, async () => {
    const png = textPng(700, 220, LINES, 32);
    const error = await refusal(extractDocument(png.slice(0, 200), { fileName: 'cut.png' }));
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe(
      'Could not parse image: the file is damaged or is not a valid image file.',
    );
  });

  it('refuses a PNG whose pixel data is garbage', { timeout: 60_000 }, async () => {
    const png = textPng(700, 220, LINES, 32);
    for (let index = 100; index < png.length; index += 7) png[index] = 0x55;
    const error = await refusal(extractDocument(png, { fileName: 'garbage.png' }));
    expect(error).toBeInstanceOf(ParseError);
  });
});

describe('OCR within PDF_MAX_PAGE_PIXELS and OCR_MAX_SECONDS', () => {
  it(
    'scales an image over the pixel budget down and still reads it',
    { timeout: 60_000 },
    async () => {
      const png = textPng(2000, 1000, LINES, 64);
      const result = await extractDocument(png, {
        fileName: 'large.png',
        limits: { ...DEFAULT_INPUT_LIMITS, pdfMaxPagePixels: 1_000_000 },
      });
      expect(result.markdown).toContain('Patient consent form');
      expect(result.warnings).toEqual([
        'The image was scaled down from 2,000 × 1,000 to 1,414 × 707 pixels for OCR; the limit is 1,000,000 pixels (PDF_MAX_PAGE_PIXELS).',
      ]);
    },
  );

  it('renders a scanned page under the pixel budget and says so', { timeout: 60_000 }, async () => {
    const pdf = await scannedPdf(textPng(1400, 500, LINES, 56), [700, 250]);
    const result = await extractDocument(pdf, {
      fileName: 'scan.pdf',
      limits: { ...DEFAULT_INPUT_LIMITS, pdfMaxPagePixels: 700_000 },
    });
    expect(result.pages?.[0]?.text).toContain('Signed on Tuesday morning');
    expect(result.warnings).toEqual([
      'Page(s) 1 had no text layer and were read by OCR.',
      'Page 1: rendered at 1,400 × 500 pixels for OCR, under 700,000 pixels (PDF_MAX_PAGE_PIXELS).',
    ]);
  });

  it(
    'stops recognition at OCR_MAX_SECONDS and says what was left out',
    { timeout: 60_000 },
    async () => {
      const lines = Array.from(
        { length: 60 },
        (_, index) => `Line ${index} of a long dense page of text`,
      );
      const png = textPng(3000, 4000, lines, 36);
      const result = await extractDocument(png, {
        fileName: 'dense.png',
        limits: { ...DEFAULT_INPUT_LIMITS, ocrMaxSeconds: 1 },
      });
      expect(result.markdown).toBe('');
      expect(result.warnings).toEqual([
        'OCR stopped after 1 s (OCR_MAX_SECONDS): no text was read.',
      ]);
    },
  );
});

describe('images and scanned PDFs: damage fails only with the allowed errors (seeded property)', () => {
  it('PNG', { timeout: 300_000 }, async () => {
    const png = textPng(500, 160, LINES, 28);
    await fc.assert(
      fc.asyncProperty(mutations(), async (steps) => {
        try {
          await extractDocument(mutate(png, steps), { fileName: 'scan.png' });
        } catch (error) {
          if (!isAllowedError(error)) throw error;
        }
      }),
      { seed: 20_270_127, numRuns: 15 },
    );
  });

  it('scanned PDF', { timeout: 300_000 }, async () => {
    const pdf = await scannedPdf(textPng(500, 160, LINES, 28), [250, 80]);
    await fc.assert(
      fc.asyncProperty(mutations(), async (steps) => {
        try {
          await extractDocument(mutate(pdf, steps), { fileName: 'scan.pdf' });
        } catch (error) {
          if (!isAllowedError(error)) throw error;
        }
      }),
      { seed: 20_270_127, numRuns: 10 },
    );
  });

  it('let no error escape its promise', () => {
    expect(escaped).toEqual([]);
  });
});
