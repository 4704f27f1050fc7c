// Every page, opened in real Chromium: it loads cleanly and looks like a real site.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PAGES, DEMO_SITES } from './pages';
import { startDemoSites } from './server';
import type { DemoSites } from './server';
import { openBrowser } from './test/browser';
import type { BrowserFixture } from './test/browser';

let sites: DemoSites;
let fixture: BrowserFixture;

beforeAll(async () => {
  [sites, fixture] = await Promise.all([startDemoSites(), openBrowser()]);
});
afterAll(async () => {
  await fixture?.browser.close();
  await sites?.close();
});
beforeEach(() => {
  fixture.problems.length = 0;
});
afterEach(() => {
  expect(fixture.problems).toEqual([]);
});

describe('every demo page', () => {
  it.each(Object.entries(DEMO_PAGES))(
    '%s (%s) loads without console errors and has a title and a main heading',
    async (_name, path) => {
      const { page } = fixture;
      await page.goto(`${sites.url}${path}`);
      // Let the page's own start-up requests (EMR patient list) finish and report.
      await fixture.settle();
      expect(await page.title()).not.toBe('');
      await expect(page.locator('main').count()).resolves.toBe(1);
      if (path !== DEMO_PAGES.iframeWidget) {
        await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1);
      }
      // No page may reach beyond this server: the benches run offline.
      const external = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((url) => !url.startsWith(location.origin)),
      );
      expect(external).toEqual([]);
    },
  );

  it('the index links every site', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}/`);
    const hrefs = await page
      .getByRole('navigation', { name: 'Demo sites' })
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    for (const site of DEMO_SITES) expect(hrefs, site.title).toContain(site.path);
    for (const site of DEMO_SITES) {
      await expect(
        page.getByRole('link', { name: site.title, exact: true }).getAttribute('href'),
      ).resolves.toBe(site.path);
    }
  });
});
