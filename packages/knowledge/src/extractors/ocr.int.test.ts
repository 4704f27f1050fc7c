import { CHROMIUM_ARGS, chromiumPath } from '@tandem/chromium';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { extractDocument } from './extract';

/** A "scan": known words rendered by Chromium and captured as a PNG, so no binary is checked in. */
async function renderPng(lines: string[]): Promise<Uint8Array> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 700, height: 220 } });
    const body = lines.map((line) => `<p>${line}</p>`).join('');
    await page.setContent(
      `<body style="margin:24px;background:#fff;color:#000;font:32px Arial,sans-serif">${body}</body>`,
    );
    return new Uint8Array(await page.screenshot({ type: 'png' }));
  } finally {
    await browser.close();
  }
}

describe('extractDocument: images by OCR (offline)', () => {
  it('reads known words from a rendered PNG', { timeout: 60_000 }, async () => {
    const png = await renderPng(['Patient consent form', 'Signed on Tuesday morning']);
    const result = await extractDocument(png, { fileName: 'scan.png' });
    expect(result.mimeType).toBe('image/png');
    expect(result.title).toBe('scan');
    expect(result.markdown).toContain('Patient consent form');
    expect(result.markdown).toContain('Signed on Tuesday morning');
    expect(result.warnings).toEqual([]);
  });
});

describe('extractDocument: scanned PDF pages by OCR', () => {
  it('renders a page without a text layer and reads it', { timeout: 90_000 }, async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf
      .addPage([400, 300])
      .drawText('Typed first page with a text layer.', { x: 40, y: 250, size: 12, font });
    const scan = await pdf.embedPng(
      await renderPng(['Scanned referral letter', 'Follow up in March']),
    );
    pdf
      .addPage([scan.width / 2, scan.height / 2])
      .drawImage(scan, { x: 0, y: 0, width: scan.width / 2, height: scan.height / 2 });
    const result = await extractDocument(await pdf.save(), { fileName: 'mixed.pdf' });
    expect(result.pages?.[0]?.text).toContain('Typed first page');
    expect(result.pages?.[1]?.text).toContain('Scanned referral letter');
    expect(result.pages?.[1]?.text).toContain('Follow up in March');
    expect(result.markdown).toContain('Follow up in March');
    expect(result.warnings).toEqual(['Page(s) 2 had no text layer and were read by OCR.']);
  });
});
