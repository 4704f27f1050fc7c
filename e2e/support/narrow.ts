// Horizontal overflow at a phone's or a narrow panel's width: what a user sees as a page that
// scrolls sideways or text cut off at the edge. Shared by the admin/documents pages' check and
// the extension's (popup, side panel, Options).
import { expect, type Page, type TestInfo } from '@playwright/test';

/** A phone's width and a laptop's: every page is looked at in both. */
export const WIDTHS = [420, 1280] as const;

/** What reaches past the viewport's right or left edge without a scrolling box around it. */
export async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const found: string[] = [];
    if (root.scrollWidth > root.clientWidth)
      found.push(`page scrolls sideways: scrollWidth ${root.scrollWidth} > ${root.clientWidth}`);
    const width = root.clientWidth;
    const clipped = (el: Element): boolean => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const x = getComputedStyle(p).overflowX;
        if (x === 'auto' || x === 'scroll' || x === 'hidden' || x === 'clip') return true;
      }
      return false;
    };
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if ((box.right > width + 1 || box.left < -1) && !clipped(el)) {
        const cls = el.getAttribute('class');
        const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls ? `.${cls}` : ''}`;
        found.push(
          `${name} spans ${Math.round(box.left)}–${Math.round(box.right)} px: "${(el.textContent ?? '').trim().slice(0, 60)}"`,
        );
      }
    }
    return found.slice(0, 20);
  });
}

/** Screenshots the page at each width (attached to the test) and checks it for overflow. */
export async function checkView(
  page: Page,
  info: TestInfo,
  name: string,
  widths: readonly number[] = WIDTHS,
): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    const file = info.outputPath(`${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await info.attach(`${name} at ${width} px`, { path: file, contentType: 'image/png' });
    // Soft: every page is screenshotted and checked before the test fails.
    expect.soft(await overflow(page), `${name} at ${width} px overflows`).toEqual([]);
  }
}
