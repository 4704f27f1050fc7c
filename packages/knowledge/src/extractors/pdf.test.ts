import fc from 'fast-check';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractDocument } from './extract';
import { meaningfulPdfTitle } from './pdf';

async function buildPdf(pages: string[][], title?: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  if (title) pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([400, 300]);
    lines.forEach((line, index) =>
      page.drawText(line, { x: 40, y: 250 - index * 20, size: 12, font }),
    );
  }
  return pdf.save();
}

describe('extractDocument: PDF', () => {
  it('reads the text layer page by page, with the document title', async () => {
    const bytes = await buildPdf(
      [['Referral letter', 'Blood pressure is normal.'], ['Second page: follow up in two weeks.']],
      'Referral',
    );
    const result = await extractDocument(bytes, { fileName: 'letter.pdf' });
    expect(result.mimeType).toBe('application/pdf');
    expect(result.title).toBe('Referral');
    expect(result.pages).toHaveLength(2);
    expect(result.pages?.[0]?.number).toBe(1);
    expect(result.pages?.[0]?.text).toContain('Blood pressure is normal.');
    expect(result.pages?.[1]?.text).toContain('follow up in two weeks');
    expect(result.markdown).toContain('Referral letter');
    expect(result.warnings).toEqual([]);
  });

  it(
    'says when a page has neither a text layer nor text OCR can read',
    { timeout: 30_000 },
    async () => {
      const result = await extractDocument(await buildPdf([['Only page with text here.'], []]), {
        fileName: 'scan.pdf',
      });
      expect(result.title).toBe('scan');
      expect(result.pages?.[1]?.text).toBe('');
      expect(result.warnings).toEqual(['Page 2: OCR found no text in the image.']);
    },
  );
});

describe('meaningfulPdfTitle', () => {
  it('keeps a real title and drops what programs write when nobody gave one', () => {
    expect(meaningfulPdfTitle('  Referral letter ')).toBe('Referral letter');
    expect(meaningfulPdfTitle('Microsoft Word - Quarterly plan')).toBe('Quarterly plan');
    expect(meaningfulPdfTitle('Größenangaben 2024')).toBe('Größenangaben 2024');
    for (const placeholder of [
      'about:blank',
      'https://example.com/print?id=1',
      'file:///C:/tmp/x.pdf',
      'Untitled',
      'untitled-3',
      'Document1',
      'Microsoft Word - Report.docx',
      'C:\\Users\\me\\invoice.pdf',
      '/home/me/scan.pdf',
      'report_final_v2.pdf',
      '---',
      '2024-01-02',
      '\u0000\u0000',
      '',
    ]) {
      expect(meaningfulPdfTitle(placeholder), placeholder).toBeUndefined();
    }
  });

  it('never returns an empty, padded or placeholder title (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (raw) => {
        const title = meaningfulPdfTitle(raw);
        if (title === undefined) return;
        expect(title).toBe(title.trim());
        expect(title.length).toBeGreaterThan(0);
        expect(title).not.toMatch(/^about:|^untitled$/i);
      }),
      { seed: 31, numRuns: 500 },
    );
  });

  it('names an uploaded PDF by its file name when its Title is about:blank', async () => {
    const bytes = await buildPdf([['Printed from a browser tab.']], 'about:blank');
    const result = await extractDocument(bytes, { fileName: 'discharge-summary.pdf' });
    expect(result.title).toBe('discharge-summary');
  });
});
