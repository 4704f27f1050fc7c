// clickAt(x, y) against a real page: a button drawn on a canvas is clicked by its point, and
// every point the executor must refuse is refused with a code, the page left untouched.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from './helpers/harness';
import { startHarness } from './helpers/harness';
import { run } from './helpers/page-api';

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
  page = await h.open('canvas.html');
});
afterAll(async () => {
  await page?.close();
  await h?.close();
});
beforeEach(async () => {
  await page.evaluate(() => {
    document.body.className = '';
    const status = document.getElementById('status');
    if (status) status.textContent = '';
    Object.assign(window, { canvasClicks: [], underClicks: 0, frameClicks: 0, confirmed: false });
  });
});

const read = <T>(name: string): Promise<T> =>
  page.evaluate((n) => (window as unknown as Record<string, T>)[n] as T, name);

describe('clickAt', () => {
  it('clicks a button drawn on a canvas at the point, with real event coordinates', async () => {
    expect(await run(page, 'clickAt(225, 180)')).toEqual({
      ok: true,
      action: 'clickAt(225, 180)',
      detail: 'clicked canvas#shop.at at (225, 180)',
    });
    expect(await page.textContent('#status')).toBe('Order placed');
    // The page's handler read the point from the event, relative to the canvas.
    expect(await read<number[][]>('canvasClicks')).toEqual([[125, 80]]);
  });

  it('clicks through to a same-origin iframe at the same point', async () => {
    expect(await run(page, 'clickAt(860, 150)')).toMatchObject({ ok: true });
    expect(await read<number>('frameClicks')).toBe(1);
  });

  it('refuses points outside the viewport and on the bare page', async () => {
    const outside = await run(page, 'clickAt(1000, 10)');
    expect(outside).toEqual({
      ok: false,
      action: 'clickAt(1000, 10)',
      code: 'invalid_action',
      error: '(1000, 10) is outside the viewport (1000×700)',
    });
    expect(await run(page, 'clickAt(50, 650)')).toMatchObject({
      ok: false,
      code: 'not_found',
      error: 'only the page background is at (50, 650)',
    });
  });

  it('refuses disabled controls, native or ARIA', async () => {
    expect(await run(page, 'clickAt(660, 120)')).toMatchObject({
      ok: false,
      code: 'disabled',
      error: 'the element at (660, 120) is disabled: button#off.at "Off"',
    });
    expect(await run(page, 'clickAt(660, 180)')).toMatchObject({ ok: false, code: 'disabled' });
  });

  it('refuses an invisible element that would catch the click', async () => {
    const result = await run(page, 'clickAt(650, 350)');
    expect(result).toMatchObject({ ok: false, code: 'occluded' });
    expect(!result.ok && result.error).toBe(
      'an invisible element (div#catcher.at) covers (650, 350)',
    );
    expect(await read<number>('underClicks')).toBe(0);
  });

  it('refuses a point under a backdrop or outside an open modal dialog', async () => {
    await page.evaluate(() => document.body.classList.add('backdrop'));
    expect(await run(page, 'clickAt(225, 180)')).toMatchObject({
      ok: false,
      code: 'occluded',
      error: 'an overlay (div#backdrop) covers (225, 180)',
    });
    await page.evaluate(() => (document.body.className = 'modal'));
    expect(await run(page, 'clickAt(225, 180)')).toMatchObject({
      ok: false,
      code: 'occluded',
      error:
        'a modal dialog (div#modal.at[role=dialog] "Confirm order") is open and (225, 180) is outside it',
    });
    expect(await page.textContent('#status')).toBe('');
    expect(await read<number[][]>('canvasClicks')).toEqual([]);
    // Inside the dialog the click goes through.
    expect(await run(page, 'clickAt(420, 480)')).toMatchObject({ ok: true });
    expect(await read<boolean>('confirmed')).toBe(true);
  });
});
