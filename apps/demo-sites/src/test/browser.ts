// Shared by the browser tests: one real Chromium per test file, and a watcher that turns
// every console error, uncaught exception and failed request into a test failure.
import { CHROMIUM_ARGS, chromiumPath } from '@tandem/chromium';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
}

/** Collects problems a user would see in DevTools; read the array at the end of a test. */
export function watchForErrors(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return problems;
}

/** Clears the server's in-memory state so each test starts from the seed data. */
export async function resetState(baseUrl: string): Promise<void> {
  const response = await fetch(`${baseUrl}/__reset`, { method: 'POST' });
  if (response.status !== 204) throw new Error(`reset answered ${response.status}`);
}

/** Center of an element in viewport coordinates, for hit tests with elementFromPoint. */
export async function centerOf(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} has no box`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

export interface BrowserFixture {
  readonly browser: Browser;
  readonly page: Page;
  /** Errors seen since the last `problems.length = 0`; tests expect it empty. */
  readonly problems: string[];
  /**
   * Resolves once no request has been in flight for `quietMs`. Playwright's `networkidle`
   * waits a fixed 500 ms; the demo pages make one or two local requests, so 50 ms is plenty.
   */
  settle(quietMs?: number): Promise<void>;
}

/**
 * One browser and one tab for a whole test file: this machine launches Chromium in ~0.3 s and
 * opens a tab in ~0.25 s, so reusing both (each test navigates afresh) keeps the run short.
 */
export async function openBrowser(): Promise<BrowserFixture> {
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  page.setDefaultTimeout(5_000);
  let inFlight = 0;
  page.on('request', () => (inFlight += 1));
  page.on('requestfinished', () => (inFlight -= 1));
  page.on('requestfailed', () => (inFlight -= 1));
  const settle = async (quietMs = 50) => {
    let quietSince = performance.now();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (inFlight > 0) quietSince = performance.now();
      else if (performance.now() - quietSince >= quietMs) return;
    }
  };
  return { browser, page, problems: watchForErrors(page), settle };
}
