// The content the extension sends for the demo catalogue and price list: the page library's
// own HTML content snapshot (`snapshot({ mode: 'content', format: 'html' })`), taken in
// headless Chromium after the pages rendered their products from the demo API.
import { CHROMIUM_ARGS, chromiumPath } from '@tandem/chromium';
import { DEMO_PAGES, startDemoSites } from '@tandem/demo-sites';
import { buildIife } from '@tandem/page/build';
import { chromium } from 'playwright-core';

export interface ContentPage {
  url: string;
  html: string;
}

/** The bench compiles without the DOM lib: the page global it calls, by hand. */
interface PageGlobals {
  TandemPage: { snapshot(options: { mode: 'content'; format: 'html' }): Promise<string> };
}

function contentSnapshot(): Promise<string> {
  return (globalThis as unknown as PageGlobals).TandemPage.snapshot({
    mode: 'content',
    format: 'html',
  });
}

export async function captureContent(): Promise<{ catalog: ContentPage[]; prices: ContentPage }> {
  const bundles = await buildIife({ write: false });
  const sites = await startDemoSites();
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...CHROMIUM_ARGS],
    headless: true,
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript({ content: bundles.page });
    const take = async (path: string, ready: string): Promise<ContentPage> => {
      const page = await context.newPage();
      const url = `${sites.url}${path}`;
      await page.goto(url);
      await page.locator(ready).first().waitFor();
      const html = await page.evaluate(contentSnapshot);
      await page.close();
      return { url, html };
    };
    const catalog = [];
    for (const path of [DEMO_PAGES.catalog, DEMO_PAGES.catalogPage2, DEMO_PAGES.catalogPage3]) {
      catalog.push(await take(path, '.product-card >> nth=39'));
    }
    const prices = await take(DEMO_PAGES.catalogPrices, 'tbody tr >> nth=499');
    return { catalog, prices };
  } finally {
    await browser.close();
    await sites.close();
  }
}
