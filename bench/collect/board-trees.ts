// The interactive trees the extension sends for the demo job board's pages, captured by the
// real page library in headless Chromium: the collect bench measures prompts over a real list
// page, not over a two-element stand-in whose tiny prompt would make any history look large.
import { CHROMIUM_ARGS, chromiumPath } from '@tandem/chromium';
import type { SemanticNodeV3 } from '@tandem/contracts';
import { DEMO_PAGES, JOB_BOARD, startDemoSites } from '@tandem/demo-sites';
import { buildIife } from '@tandem/page/build';
import { chromium } from 'playwright-core';

export interface BoardPage {
  url: string;
  tree: SemanticNodeV3[];
}

/** The bench compiles without the DOM lib: the page global it calls, by hand. */
interface PageGlobals {
  TandemPage: { captureTree(): { interactiveTree: SemanticNodeV3[] } };
}

function capture(): SemanticNodeV3[] {
  return (globalThis as unknown as PageGlobals).TandemPage.captureTree().interactiveTree;
}

export async function captureBoardPages(): Promise<BoardPage[]> {
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
    const pages: BoardPage[] = [];
    for (let n = 1; n <= JOB_BOARD.pageCount; n++) {
      const url = `${sites.url}${DEMO_PAGES.jobs}${n > 1 ? `?page=${n}` : ''}`;
      const page = await context.newPage();
      await page.goto(url);
      // The board renders its cards from the jobs API after load.
      await page.locator('#job-list[aria-busy="false"]').waitFor({ state: 'attached' });
      pages.push({ url, tree: await page.evaluate(capture) });
      await page.close();
    }
    return pages;
  } finally {
    await browser.close();
    await sites.close();
  }
}
