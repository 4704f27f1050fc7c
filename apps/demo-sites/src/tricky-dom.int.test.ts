// The widgets that trip agents up: an occluding overlay, an iframe, a shadow root and a list
// that rebuilds its DOM on a timer. Real Chromium, real hit tests.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_API, DEMO_PAGES } from './pages';
import { startDemoSites } from './server';
import type { DemoSites } from './server';
import { centerOf, openBrowser, resetState } from './test/browser';
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
beforeEach(async () => {
  await resetState(sites.url);
  fixture.problems.length = 0;
});
afterEach(() => {
  expect(fixture.problems).toEqual([]);
});

/** The id of whatever the user would actually hit at the center of `selector`. */
async function hitAt(selector: string): Promise<string | null> {
  const { x, y } = await centerOf(fixture.page, selector);
  return fixture.page.evaluate(
    ({ px, py }) => {
      const hit = document.elementFromPoint(px, py);
      return hit ? hit.id || hit.tagName.toLowerCase() : null;
    },
    { px: x, py: y },
  );
}

describe('modal', () => {
  it('an open overlay occludes every page button until it is confirmed', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.modal}`);
    const status = page.locator('#page-status');
    await page.getByRole('button', { name: 'Save draft' }).click();
    expect(await status.textContent()).toBe('Draft saved.');
    expect(await hitAt('#publish')).toBe('publish');

    await page.getByRole('button', { name: 'Open dialog' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm changes' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    for (const id of ['save-draft', 'publish', 'open-dialog']) {
      // Still in the DOM and "visible" to a naive check, but the overlay takes the hit.
      expect(await page.locator(`#${id}`).isVisible(), id).toBe(true);
      expect(await hitAt(`#${id}`), id).toBe('overlay');
    }
    // A real mouse click at the Publish button lands on the overlay and does nothing.
    const { x, y } = await centerOf(page, '#publish');
    await page.mouse.click(x, y);
    expect(await status.textContent()).toBe('Draft saved.');
    await expect(
      page.getByRole('button', { name: 'Publish' }).click({ timeout: 300 }),
    ).rejects.toThrow(/intercepts pointer events/);

    await dialog.getByRole('button', { name: 'Confirm' }).click();
    expect(await dialog.isVisible()).toBe(false);
    expect(await status.textContent()).toBe('Changes confirmed.');
    expect(await hitAt('#publish')).toBe('publish');
    await page.getByRole('button', { name: 'Publish' }).click();
    expect(await status.textContent()).toBe('Article published.');
  });

  it('?open=1 opens the dialog on load; Close and Escape dismiss it', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.modalOpen}`);
    const dialog = page.getByRole('dialog', { name: 'Confirm changes' });
    await dialog.waitFor();
    expect(await hitAt('#save-draft')).toBe('overlay');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('confirm-dialog');
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await dialog.isVisible()).toBe(false);
    expect(await page.locator('#page-status').textContent()).toBe('Dialog closed without changes.');

    await page.getByRole('button', { name: 'Open dialog' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('open-dialog');
  });
});

describe('iframe', () => {
  it('the same-origin widget greets the visitor and tells the host page', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.iframe}`);
    expect(
      await page.evaluate(
        () => document.querySelector('iframe')?.contentDocument?.location.pathname ?? null,
      ),
    ).toBe(DEMO_PAGES.iframeWidget);
    // The controls exist only inside the frame.
    expect(await page.getByRole('textbox', { name: 'Your name' }).count()).toBe(0);

    const widget = page.frameLocator('iframe[title="Greeting widget"]');
    await widget.getByRole('textbox', { name: 'Your name' }).fill('Jas');
    await widget.getByRole('button', { name: 'Say hello' }).click();
    expect(await widget.getByRole('status').textContent()).toBe('Hello, Jas!');
    await page.getByText('Widget says: Hello, Jas!').waitFor();
  });
});

describe('shadow DOM', () => {
  it('the input and button live in an open shadow root and work', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.shadow}`);
    const structure = await page.evaluate(() => {
      const host = document.querySelector('profile-editor') as HTMLElement;
      const input = host.shadowRoot?.getElementById('display-name') as HTMLInputElement | null;
      return {
        mode: host.shadowRoot?.mode,
        inLightDom: document.getElementById('display-name') !== null,
        label: input?.labels?.[0]?.textContent,
        value: input?.value,
      };
    });
    expect(structure).toEqual({
      mode: 'open',
      inLightDom: false,
      label: 'Display name',
      value: 'Alex Morgan',
    });

    await page.getByRole('textbox', { name: 'Display name' }).fill('Jas Patel');
    await page.getByRole('button', { name: 'Update name' }).click();
    expect(await page.getByRole('status').textContent()).toBe('Display name updated to Jas Patel.');
    expect(await page.locator('#header-name').textContent()).toBe('Jas Patel');
  });
});

describe('re-rendering list', () => {
  // The page's default period is 500 ms; a shorter one keeps the slower tests quick.
  const FAST = 400;
  const renders = () =>
    fixture.page.evaluate(() =>
      Number((document.getElementById('invoice-list') as HTMLElement).dataset.renders),
    );
  const nextRender = async () =>
    fixture.page.waitForFunction(
      (n) => Number((document.getElementById('invoice-list') as HTMLElement).dataset.renders) > n,
      await renders(),
    );

  it('replaces its DOM nodes on the timer with identical markup', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.rerender}`);
    const before = await renders();
    const html = await page.locator('#invoice-list').innerHTML();
    const old = await page.getByRole('button', { name: 'Approve INV-1002' }).elementHandle();
    await page.waitForFunction(
      (n) => Number((document.getElementById('invoice-list') as HTMLElement).dataset.renders) > n,
      before,
      { timeout: 3_000 },
    );
    expect(await old?.evaluate((node) => node.isConnected)).toBe(false);
    expect(await page.locator('#invoice-list').innerHTML()).toBe(html);
    expect(await page.getByRole('button', { name: /^Approve INV-/ }).count()).toBe(5);
  });

  it('still records clicks made across re-renders', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.rerender}?interval=${FAST}`);
    const log = page.getByRole('status');
    const sequence = ['INV-1002', 'INV-1004', 'INV-1002'];
    for (const [index, id] of sequence.entries()) {
      // Every click targets a button that did not exist when the previous one was made.
      await nextRender();
      await page.getByRole('button', { name: `Approve ${id}` }).click();
      const total = index + 1;
      await page
        .getByText(`Approved ${id} (${total} ${total === 1 ? 'approval' : 'approvals'} so far).`)
        .waitFor();
    }
    expect(await log.textContent()).toBe('Approved INV-1002 (3 approvals so far).');

    const body = await (await fetch(`${sites.url}${DEMO_API.rerenderClicks}`)).json();
    expect(body).toEqual({
      clicks: sequence.map((itemId, i) => ({ itemId, sequence: i + 1 })),
      total: 3,
    });
  });

  it('holds the refresh while a button is pressed, so a slow click still lands', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.rerender}?interval=${FAST}`);
    await nextRender();
    const { x, y } = await centerOf(page, '[data-invoice="INV-1005"]');
    await page.mouse.move(x, y);
    await page.mouse.down();
    const pressedAt = await renders();
    await page.waitForTimeout(FAST * 3);
    expect(await renders()).toBe(pressedAt);
    await page.mouse.up();
    await page.getByText('Approved INV-1005 (1 approval so far).').waitFor();
    await nextRender();
  });

  it('keeps keyboard focus on the same button across re-renders', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.rerender}?interval=${FAST}`);
    await page.getByRole('button', { name: 'Approve INV-1003' }).focus();
    await nextRender();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Approve INV-1003',
    );
    await page.keyboard.press('Enter');
    await page.getByText('Approved INV-1003 (1 approval so far).').waitFor();
  });
});
