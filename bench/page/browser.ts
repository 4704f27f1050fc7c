// Opening and closing saved dev pages in Chromium, shared by bench/page and bench/snapshot.
import type { BrowserContext, Page } from 'playwright-core';

/** A positive number from `--name N` on the command line, or the fallback. */
export function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export async function openAndWait(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  // Some saved pages navigate themselves (e.g. an ad-block check that reloads forever once its
  // confirm() is dismissed): after the first load, the page under measurement stays put.
  let loaded = false;
  await page.route('**/*', (route) =>
    loaded && route.request().isNavigationRequest() && route.request().frame() === page.mainFrame()
      ? route.abort()
      : route.continue(),
  );
  await page.goto(url, { waitUntil: 'load', timeout: 20_000 }).catch(() => undefined);
  loaded = true;
  return page;
}

/** Closes a page without waiting forever on one that keeps navigating or blocks unload. */
export async function closePage(page: Page): Promise<void> {
  await Promise.race([
    page.close({ runBeforeUnload: false }).catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, 5_000)),
  ]);
}
