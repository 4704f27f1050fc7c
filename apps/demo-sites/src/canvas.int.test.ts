// The canvas kiosk in real Chromium: its buttons are pixels at the points CANVAS_KIOSK says
// (at several viewport sizes and a 2× display), clicking them changes the status line, and no
// element of the page can be clicked instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANVAS_KIOSK, centreOf } from './canvas';
import { DEMO_PAGES } from './pages';
import { startDemoSites, type DemoSites } from './server';
import { launchBrowser, watchForErrors } from './test/browser';
import type { Browser } from 'playwright-core';

let sites: DemoSites;
let browser: Browser;

beforeAll(async () => {
  [sites, browser] = await Promise.all([startDemoSites(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await sites?.close();
});

async function open(viewport: { width: number; height: number }, deviceScaleFactor = 1) {
  const context = await browser.newContext({ viewport, deviceScaleFactor });
  const page = await context.newPage();
  const problems = watchForErrors(page);
  await page.goto(`${sites.url}${DEMO_PAGES.canvas}`);
  return { page, problems, close: () => context.close() };
}

describe('canvas kiosk', () => {
  it.each([
    [{ width: 1280, height: 800 }, 1],
    [{ width: 820, height: 620 }, 1],
    [{ width: 1280, height: 800 }, 2],
  ])(
    'draws the red Order button at its point (%o, %d×) and orders on a click there',
    async (viewport, scale) => {
      const { page, problems, close } = await open(viewport, scale);
      const box = await page.locator('#kiosk').boundingBox();
      expect(box).toEqual(CANVAS_KIOSK.canvas);
      const centre = centreOf(CANVAS_KIOSK.order);
      // The pixel there is the button's red, read back from the canvas.
      const pixel = await page.evaluate(
        ({ x, y, left, top }) => {
          const canvas = document.getElementById('kiosk') as HTMLCanvasElement;
          const ratio = canvas.width / canvas.getBoundingClientRect().width;
          const data = canvas
            .getContext('2d')
            ?.getImageData(
              Math.round((x - left) * ratio),
              Math.round((y - top) * ratio),
              1,
              1,
            ).data;
          return data ? [data[0], data[1], data[2]] : null;
        },
        { ...centre, left: CANVAS_KIOSK.canvas.x, top: CANVAS_KIOSK.canvas.y },
      );
      const { r, g, b } = CANVAS_KIOSK.orderColour;
      expect(pixel).toEqual([r, g, b]);
      await page.mouse.click(centre.x, centre.y);
      await expect.poll(() => page.textContent('#order-status')).toBe(CANVAS_KIOSK.ordered);
      expect(problems).toEqual([]);
      await close();
    },
  );

  it('saves for later from the grey button, and ignores clicks beside the buttons', async () => {
    const { page, close } = await open({ width: 1280, height: 800 });
    const later = centreOf(CANVAS_KIOSK.saveForLater);
    await page.mouse.click(CANVAS_KIOSK.canvas.x + 10, CANVAS_KIOSK.canvas.y + 10);
    expect(await page.textContent('#order-status')).toBe('');
    await page.mouse.click(later.x, later.y);
    expect(await page.textContent('#order-status')).toBe(CANVAS_KIOSK.savedForLater);
    await close();
  });

  it('has no element to click: the order screen is pixels only', async () => {
    const { page, close } = await open({ width: 1280, height: 800 });
    const clickable = await page
      .locator('a, button, input, select, textarea, [role=button], [onclick], [tabindex]')
      .count();
    expect(clickable).toBe(0);
    // The page does not scroll: the points are the same in the viewport.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(
      800,
    );
    await close();
  });
});
