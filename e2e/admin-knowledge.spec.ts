// End to end: the knowledge admin page of the production server. A Markdown file goes in
// through the API; the admin signs in, starts a spider crawl of the demo docs site from the
// page's form, watches it finish (the page reloads itself while a job runs), re-indexes one
// page, then tries the allowed domains (a refused crawl shows why) and deletes the upload
// through the two-step confirm. The server is this spec's own: a loopback crawl needs
// KNOWLEDGE_ALLOW_PRIVATE_URLS=true, the option that lets an intranet be crawled.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from '@tandem/chromium';
import { IngestResponse, KnowledgeDocumentList, KnowledgeJobList } from '@tandem/contracts';
import { DOCS_PAGES } from '@tandem/demo-sites';
import { e2eEnv } from './support/env';
import { startTandemServer, type TandemServer } from './support/tandem-server';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../docs/images');
const NOTES = `# Refund policy

Refunds are paid back to the original card within five working days.

## Exceptions

Gift cards are never refunded.
`;

let server: TandemServer;
let browser: Browser;

test.beforeAll(async () => {
  server = await startTandemServer({
    gemini: e2eEnv().gemini,
    env: {
      KNOWLEDGE_ALLOW_PRIVATE_URLS: 'true',
      KNOWLEDGE_CRAWL_DELAY_MS: '0',
      // The fake Gemini has no embeddings endpoint: lexical retrieval, as the page says.
      EMBEDDINGS: 'off',
    },
  });
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
});

test.afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function api<T>(pathname: string, parse: (v: unknown) => T, init: RequestInit = {}) {
  const res = await fetch(`${server.url}${pathname}`, {
    ...init,
    headers: { authorization: `Bearer ${server.apiKey}`, ...init.headers },
  });
  expect(res.status, `${pathname}: ${res.status}`).toBeLessThan(300);
  return parse(await res.json());
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/admin/knowledge`);
  await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Fknowledge/);
  await page.getByLabel('Admin API key').fill(server.apiKey);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await expect(page).toHaveURL(/\/admin\/knowledge$/);
}

/** React resets a server-rendered textarea when it hydrates: type only after that. */
async function hydrated(page: Page): Promise<void> {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

test('knowledge admin: usage, a crawl with live progress, sources, re-index, allowed domains, delete', async () => {
  const demo = e2eEnv().demo;
  const demoHost = new URL(demo).host;

  // A file through the API, as an integration would upload it.
  const form = new FormData();
  form.set('file', new Blob([NOTES], { type: 'text/markdown' }), 'refund-policy.md');
  const ingested = await api('/api/knowledge/ingest', (v) => IngestResponse.parse(v), {
    method: 'POST',
    body: form,
  });
  expect(ingested.document.chunks).toBeGreaterThan(0);

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Knowledge', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toContainText('Knowledge');
  const usage = page.getByRole('region', { name: 'Knowledge usage' });
  await expect(usage.locator('.kpi', { hasText: 'Documents' })).toContainText('1');
  await expect(usage.locator('.kpi', { hasText: 'Embeddings' })).toContainText(
    'lexical retrieval only',
  );
  const sources = page.getByRole('table', { name: 'Sources' });
  const upload = sources.locator('tr', { hasText: ingested.document.title });
  await expect(upload).toContainText('upload');
  await expect(upload).toContainText('all sites');
  await expect(upload.locator('td').nth(5)).toHaveText(String(ingested.document.chunks));

  // A spider crawl of the demo docs from the form; the page follows it until it ends.
  const indexForm = page.getByRole('form', { name: 'Index a site' });
  // From a guide: the API reference at /docs/ links to no other page, the guides' sidebar does.
  await indexForm.getByLabel('URL').fill(`${demo}${DOCS_PAGES.gettingStarted}`);
  await indexForm.getByLabel('Strategy').selectOption('spider');
  await indexForm.getByLabel('Max pages').fill('30');
  await indexForm.getByLabel('Max depth').fill('2');
  await indexForm.getByRole('button', { name: 'Start crawl' }).click();
  await expect(page.locator('p.notice')).toContainText(
    `Indexing ${demo}${DOCS_PAGES.gettingStarted}`,
  );
  const job = page.getByTestId('knowledge-job').first();
  await expect(job).toHaveAttribute('data-status', 'completed', { timeout: 90_000 });

  // What the page shows is what the API answers.
  const [jobs, list] = await Promise.all([
    api('/api/knowledge/jobs', (v) => KnowledgeJobList.parse(v)),
    api('/api/knowledge/documents', (v) => KnowledgeDocumentList.parse(v)),
  ]);
  const crawl = jobs.jobs[0];
  expect(crawl?.status).toBe('completed');
  expect(crawl?.progress.ingested, JSON.stringify(crawl, null, 2)).toBeGreaterThanOrEqual(10);
  await expect(job).toContainText(`${crawl?.progress.ingested} ingested`);
  await expect(job).toContainText(`${crawl?.progress.failed} failed`);
  const crawled = list.documents.filter((d) => d.source === 'crawl');
  expect(crawled.length).toBeGreaterThanOrEqual(10);
  await expect(sources.getByTestId('knowledge-document')).toHaveCount(list.documents.length);
  await expect(usage.locator('.kpi', { hasText: 'Chunks' }).locator('b')).toHaveText(
    String(list.usage.chunks),
  );
  // The docs' traps (a 404, a redirect loop) are the job's errors, one click away.
  if ((crawl?.errors.length ?? 0) > 0) {
    await job.locator('summary').click();
    await expect(job.locator('ul.errors li').first()).toBeVisible();
  }

  // Re-index one crawled page: a one-page job, unchanged content.
  const faq = sources.locator('tr', { has: page.locator(`a[href$="${DOCS_PAGES.faq}"]`) });
  await expect(faq).toContainText('crawl');
  await expect(faq).toContainText(demoHost.split(':')[0] ?? demoHost);
  await faq.getByRole('button', { name: 'Re-index' }).click();
  await expect(page.locator('p.notice')).toContainText(`Re-indexing ${demo}${DOCS_PAGES.faq}`);
  await expect(page.getByTestId('knowledge-job')).toHaveCount(2);
  const reindex = page.getByTestId('knowledge-job').first();
  await expect(reindex).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(reindex).toContainText('1 unchanged');

  // Open the spider job's errors again (the reload closed them) for the screenshot.
  const spider = page.getByTestId('knowledge-job').nth(1);
  if ((crawl?.errors.length ?? 0) > 0) await spider.locator('summary').click();
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'admin-knowledge.png'), fullPage: true });

  // Allowed domains: a crawl elsewhere is refused with the reason on the page.
  const domains = page.getByRole('form', { name: 'Allowed domains' });
  await hydrated(page);
  await domains.getByRole('textbox').fill('docs.example.com\nhelp.example.com');
  await domains.getByRole('button', { name: 'Save allowed domains' }).click();
  await expect(page.locator('p.notice')).toContainText(
    'Allowed domains saved: docs.example.com, help.example.com.',
  );
  await expect(
    page.getByRole('form', { name: 'Allowed domains' }).getByRole('textbox'),
  ).toHaveValue('docs.example.com\nhelp.example.com');
  await page.getByRole('form', { name: 'Index a site' }).getByLabel('URL').fill(`${demo}/docs/`);
  await page.getByRole('button', { name: 'Start crawl' }).click();
  await expect(page.locator('p.error')).toContainText('is not in the allowed domains');
  await expect(page.getByTestId('knowledge-job')).toHaveCount(2);
  await hydrated(page);
  await page.getByRole('form', { name: 'Allowed domains' }).getByRole('textbox').fill('');
  await page.getByRole('button', { name: 'Save allowed domains' }).click();
  await expect(page.locator('p.notice')).toContainText('Allowed domains cleared');

  // Delete the upload: "Delete…" opens the confirm button, which deletes it and its chunks.
  const uploadRow = page
    .getByRole('table', { name: 'Sources' })
    .locator('tr', { hasText: ingested.document.title });
  await uploadRow.getByText('Delete…').click();
  await uploadRow.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(page.locator('p.notice')).toContainText(`Deleted “${ingested.document.title}”`);
  await expect(
    page.getByRole('table', { name: 'Sources' }).locator('tr', {
      hasText: ingested.document.title,
    }),
  ).toHaveCount(0);
  const after = await api('/api/knowledge/documents', (v) => KnowledgeDocumentList.parse(v));
  expect(after.documents.some((d) => d.id === ingested.document.id)).toBe(false);
  expect(after.usage.documents).toBe(list.usage.documents - 1);
  await page.close();
});
