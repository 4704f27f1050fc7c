import { CHROMIUM_ARGS, chromiumPath } from '@tandem/chromium';
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
