// End to end: the /extractions page of the production server in headless Chromium. A user signs
// in with their API key, uploads the demo invoice (a PDF), watches the agent work (one model turn
// is held so the live view can be seen mid-run), reads the fields with their confidences (the
// due date, printed day first, is highlighted as uncertain), corrects the total in plain words,
// downloads the JSON, then extracts the scanned two-page claim, read by OCR. The model is the
// suite's fake Gemini, answering function calls with the scripted document model.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from '@tandem/chromium';
import { DocumentExtractionDetail } from '@tandem/contracts';
import { CLAIM, INVOICE, renderPdf, renderScannedPdf } from '@tandem/documents/testing';
import { e2eEnv } from './support/env';
import { fakeGemini } from './support/fake-gemini-control';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../docs/images');

let browser: Browser;

test.beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
});
test.afterAll(async () => {
  await fakeGemini(e2eEnv().gemini).releaseAll();
  await browser?.close();
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });

test('documents: upload, live run, fields with confidences, a correction, JSON, a scan by OCR', async () => {
  test.setTimeout(180_000);
  const { server, apiKey, gemini } = e2eEnv();
  const model = fakeGemini(gemini);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });

  // Signing in: the key goes into an httpOnly cookie, never into the page's scripts.
  await page.goto(`${server}/extractions`);
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await page.getByLabel('API key').fill('tdm_not-a-key');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('p.error')).toHaveText('That key is not valid (unknown or revoked).');
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('form', { name: 'New extraction' })).toBeVisible();
  expect(await page.evaluate(() => document.cookie)).toBe('');

  // The invoice: the agent's last turn (its summary) is held, to see the run mid-way.
  const held = await model.hold('document_extraction', 'after:complete_extraction');
  await page.getByLabel('Document').setInputFiles({
    name: INVOICE.fileName,
    mimeType: INVOICE.mimeType,
    buffer: Buffer.from(await renderPdf(INVOICE.layout, 'Invoice INV-2024-0042')),
  });
  await page.getByRole('button', { name: 'Extract' }).click();
  await held.reached();
  const agent = page.getByRole('region', { name: 'Agent' });
  await expect(agent).toContainText('Read Invoice INV-2024-0042 (1 page)');
  await expect(agent.locator('li.tool')).toHaveText([
    'Reading the document',
    'Identified the document: invoice',
    'Saving 8 fields',
    'Completing the extraction',
  ]);
  await expect(agent.getByRole('status')).toHaveText('The agent is working…');
  await shot(page, 'documents-running.png');
  await held.release();

  const extraction = page.getByRole('region', { name: 'Extraction' });
  await expect(extraction).toHaveAttribute('data-status', 'completed');
  await expect(agent).toContainText(/I extracted 27 values from this invoice/);
  await expect(agent).toContainText(/Finished · \$\d+\.\d{4}/);
  const fields = extraction.getByRole('table', { name: 'Fields' });
  const row = (field: string) =>
    fields.locator('tr', { has: page.locator(`code:text-is("${field}")`) });
  await expect(row('totals.total')).toContainText('1204.5');
  await expect(row('vendor.name')).toContainText('Acme Supplies Ltd');
  await expect(row('items[3].description')).toContainText('Blood pressure monitor');
  // Low confidence is highlighted, and only there.
  await expect(fields.locator('tr[data-low="true"]')).toHaveCount(1);
  await expect(row('due_date')).toHaveAttribute('data-low', 'true');
  await expect(row('due_date')).toContainText('60%');
  await expect(extraction).toContainText('1 value below 80% confidence');
  await shot(page, 'documents-fields.png');

  // A correction in plain words changes that one value.
  await extraction
    .getByLabel('Something wrong? Say it in plain words.')
    .fill('the total is 1,240.50, not 1,204.50');
  await extraction.getByRole('button', { name: 'Send correction' }).click();
  await expect(agent.locator('li.tool')).toHaveText([
    'Looking at the extraction',
    'Setting totals.total to 1240.5',
  ]);
  await expect(row('totals.total')).toContainText('1240.5');
  await expect(row('totals.total')).toContainText('100%');
  await expect(row('totals.subtotal')).toContainText('1003.75');
  await extraction.getByText(/History \(4 writes\)/).click();
  await expect(extraction.locator('ol.history li')).toHaveCount(4);
  await shot(page, 'documents-corrected.png');

  // Download JSON: the corrected fields.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    extraction.getByRole('button', { name: 'Download JSON' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^extraction-[0-9a-f-]{36}\.json$/);
  const saved = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    id: string;
    fields: { totals: { total: number } };
    confidences: { totals: { total: number } };
  };
  expect(saved.fields.totals.total).toBe(1240.5);
  expect(saved.confidences.totals.total).toBe(1);
  // The page shows what the API has.
  const api = DocumentExtractionDetail.parse(
    await (
      await fetch(`${server}/api/extractions/${saved.id}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      })
    ).json(),
  );
  expect(api.fields).toEqual(saved.fields);

  // A scan: two pages of images, read by OCR.
  await page.getByLabel('Document').setInputFiles({
    name: CLAIM.fileName,
    mimeType: CLAIM.mimeType,
    buffer: Buffer.from(await renderScannedPdf(CLAIM.layout, browser)),
  });
  await page.getByRole('button', { name: 'Extract' }).click();
  await expect(agent).toContainText('Page(s) 1, 2 had no text layer and were read by OCR.', {
    timeout: 90_000,
  });
  await expect(extraction).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  await expect(row('claim_number')).toContainText('CLM-88412');
  await expect(row('claim_details.amount_claimed')).toContainText('3450');
  await expect(row('declaration.signature_date')).toContainText('2024-02-12');
  const list = page.getByRole('navigation', { name: 'Your extractions' });
  await expect(list.getByRole('button')).toHaveText([
    'claim-CLM-88412-scan',
    'Invoice INV-2024-0042',
  ]);
  await shot(page, 'documents-scan.png');

  // The earlier one opens from the list.
  await list.getByRole('button', { name: 'Invoice INV-2024-0042' }).click();
  await expect(row('totals.total')).toContainText('1240.5');
  await page.close();
});

test('documents: a wrong key and a file it cannot read say what went wrong; nothing is kept', async () => {
  const { server, apiKey } = e2eEnv();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server}/extractions`);
  await page.getByLabel('API key').fill('tdm_not-a-key');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // (Next.js's route announcer is an empty alert of its own: the page's is p.error.)
  await expect(page.locator('p.error[role="alert"]')).toHaveText(
    'That key is not valid (unknown or revoked).',
  );
  await shot(page, 'documents-sign-in.png');

  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const listed = async () =>
    (
      (await (
        await fetch(`${server}/api/extractions`, { headers: { authorization: `Bearer ${apiKey}` } })
      ).json()) as { extractions: unknown[] }
    ).extractions.length;
  const before = await listed();
  // Bytes of no format it knows, under a name that promises nothing either.
  await page.getByLabel('Document').setInputFiles({
    name: 'backup.bin',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919) % 251)),
  });
  await page.getByRole('button', { name: 'Extract' }).click();
  const alert = page.locator('p.error[role="alert"]');
  await expect(alert).toBeVisible();
  await expect(alert).toHaveText(
    'Tandem cannot read this file (application/octet-stream). It reads PDF (scans too, by ' +
      'OCR), Word, images, HTML, Markdown, text, CSV, JSON, XML and YAML files.',
  );
  await expect(page.getByRole('button', { name: 'Extract' })).toBeEnabled();
  await shot(page, 'documents-error.png');
  expect(await listed()).toBe(before);
  await page.close();
});

test('documents: at 420 px wide nothing runs off the side, signed out or with extractions', async () => {
  const { server, apiKey } = e2eEnv();
  const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.goto(`${server}/extractions`);
  await expect(page.getByLabel('API key')).toBeVisible();
  expect(await overflow()).toBe(0);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('form', { name: 'New extraction' })).toBeVisible();
  expect(await overflow()).toBe(0);
  // An extraction open (the first test's, or none when this test runs alone).
  const first = page.locator('ul.list button.link').first();
  if ((await first.count()) > 0) {
    await first.click();
    await expect(page.getByRole('button', { name: 'Download JSON' })).toBeVisible();
  }
  expect(await overflow()).toBe(0);
  await page.close();
});
