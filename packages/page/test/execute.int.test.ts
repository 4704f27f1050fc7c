// execute() against real pages: every action of the grammar, framework-controlled fields,
// custom dropdowns, frames, shadow roots and the refusals (occluded, disabled, invalid).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from './helpers/harness';
import { startHarness } from './helpers/harness';
import { capture, must, node, run } from './helpers/page-api';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const idOf = async (page: Page, name: string): Promise<string> =>
  node((await capture(page)).interactiveTree, name).i;
const state = async (page: Page): Promise<Record<string, unknown>> =>
  JSON.parse((await page.textContent('#state')) ?? '{}') as Record<string, unknown>;

describe('setValue and select on framework-controlled fields', () => {
  let page: Page;
  beforeAll(async () => {
    page = await h.open('react-like.html');
  });
  afterAll(() => page.close());

  it('the fixture really loses edits that bypass its value tracker', async () => {
    await page.evaluate(() => {
      const input = document.getElementById('name') as HTMLInputElement;
      input.value = 'naive';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(await state(page)).toMatchObject({ name: 'initial' });
    expect(await page.inputValue('#name')).toBe('initial');
  });

  it('sets a controlled input through the native setter so the component state updates', async () => {
    const id = await idOf(page, 'Name');
    expect(await run(page, `setValue("${id}", "Jas Patel")`)).toEqual({
      ok: true,
      action: `setValue("${id}", "Jas Patel")`,
    });
    expect(await state(page)).toMatchObject({ name: 'Jas Patel' });
    expect(await page.inputValue('#name')).toBe('Jas Patel');
    expect(await run(page, `setValue("${id}", "")`)).toMatchObject({ ok: true });
    expect(await state(page)).toMatchObject({ name: '' });
  });

  it('selects native options by visible text and by value', async () => {
    const id = await idOf(page, 'Plan');
    expect(await run(page, `select("${id}", "pro")`)).toMatchObject({ ok: true });
    expect(await state(page)).toMatchObject({ plan: 'pro' });
    expect(await run(page, `select("${id}", " TEAM ")`)).toMatchObject({ ok: true });
    expect(await state(page)).toMatchObject({ plan: 'team' });
    const missing = await run(page, `select("${id}", "Enterprise")`);
    expect(missing).toMatchObject({ ok: false, code: 'failed' });
    expect(!missing.ok && missing.error).toBe(
      'no option "Enterprise"; options: "Free", "Pro", "Team"',
    );
    // setValue on a select means the same as select.
    expect(await run(page, `setValue("${id}", "Free")`)).toMatchObject({ ok: true });
    expect(await state(page)).toMatchObject({ plan: 'free' });
  });

  it('types into contenteditable through the editing pipeline', async () => {
    const id = await idOf(page, 'Bio');
    expect(await run(page, `setValue("${id}", "Likes hiking")`)).toMatchObject({ ok: true });
    expect(await state(page)).toMatchObject({ bio: 'Likes hiking' });
    expect(await run(page, `setValue("${id}", "Replaced")`)).toMatchObject({ ok: true });
    expect(await page.textContent('#bio')).toBe('Replaced');
  });

  it('checks and unchecks a checkbox with setValue("true"/"false") and click', async () => {
    const id = await idOf(page, 'Accept terms');
    expect(await run(page, `setValue("${id}", "true")`)).toMatchObject({ ok: true });
    expect(await state(page)).toMatchObject({ terms: true });
    expect(await run(page, `click("${id}")`)).toMatchObject({ ok: true });
    expect(await state(page)).toMatchObject({ terms: false });
    expect(await run(page, `setValue("${id}", "maybe")`)).toMatchObject({
      ok: false,
      code: 'invalid_action',
    });
  });
});

describe('custom dropdown', () => {
  it('opens a non-native listbox, waits for its options and picks one', async () => {
    const page = await h.open('dropdown.html');
    const tree = (await capture(page)).interactiveTree;
    const button = node(tree, 'Favourite fruit');
    expect(button).toMatchObject({ r: 'btn', s: 'collapsed' });
    expect(tree.some((n) => n.r === 'opt')).toBe(false);

    expect(await run(page, `select("${button.i}", "banana")`)).toMatchObject({ ok: true });
    expect(await page.textContent('#chosen')).toBe('chosen:b');

    // By hand: click to open, capture the options, click one.
    expect(await run(page, `click("${button.i}")`)).toMatchObject({ ok: true });
    await page.waitForSelector('#fruit-list:not([hidden])');
    const open = (await capture(page)).interactiveTree;
    expect(node(open, 'Favourite fruit').s).toBe('expanded,focused');
    expect(open.filter((n) => n.r === 'opt').map((n) => n.n)).toEqual([
      'Apple',
      'Banana',
      'Cherry',
    ]);
    expect(await run(page, `click("${node(open, 'Cherry').i}")`)).toMatchObject({ ok: true });
    expect(await page.textContent('#chosen')).toBe('chosen:c');

    const missing = await run(page, `select("${button.i}", "Durian")`);
    expect(missing).toMatchObject({ ok: false, code: 'failed' });
    expect(!missing.ok && missing.error).toContain(
      'no option "Durian"; options: "Apple", "Banana", "Cherry"',
    );
    await page.close();
  });
});

describe('refusals', () => {
  it('refuses to click an occluded element and names what covers it', async () => {
    const page = await h.open('modal.html');
    const behind = await idOf(page, 'Behind button');
    expect(await run(page, `click("${behind}")`)).toMatchObject({ ok: true });
    await page.click('#open');
    const result = await run(page, `click("${behind}")`);
    expect(result).toMatchObject({ ok: false, code: 'occluded' });
    expect(!result.ok && result.error).toBe('element occluded by div#backdrop');
    expect(
      await page.evaluate(() => (window as unknown as { behindClicks: number }).behindClicks),
    ).toBe(1);
    expect(await run(page, `click("${await idOf(page, 'Confirm')}")`)).toMatchObject({ ok: true });
    expect(await page.evaluate(() => (window as unknown as { confirmed: boolean }).confirmed)).toBe(
      true,
    );
    await page.close();
  });

  it('refuses disabled elements, bad actions and googleSearch; finish and fail are no-ops', async () => {
    const page = await h.open('form.html');
    const del = await idOf(page, 'Delete');
    expect(await run(page, `click("${del}")`)).toMatchObject({ ok: false, code: 'disabled' });
    const ro = await idOf(page, 'Record number');
    expect(await run(page, `setValue("${ro}", "x")`)).toMatchObject({
      ok: false,
      code: 'disabled',
    });
    expect(await run(page, 'clik("1")')).toMatchObject({
      ok: false,
      code: 'invalid_action',
      action: 'clik("1")',
    });
    expect(await run(page, 'googleSearch("tandem")')).toMatchObject({
      ok: false,
      code: 'unsupported',
    });
    expect(await run(page, 'finish("done")')).toEqual({ ok: true, action: 'finish("done")' });
    expect(await run(page, 'fail("no way")')).toEqual({ ok: true, action: 'fail("no way")' });
    const link = await idOf(page, 'Patient list');
    expect(await run(page, `setValue("${link}", "x")`)).toMatchObject({
      ok: false,
      code: 'invalid_action',
    });
    await page.close();
  });
});

describe('clicks, keys, hover, scroll and navigation', () => {
  it('submits a form with press("Enter") in a field and with a click', async () => {
    const page = await h.open('form.html');
    const first = await idOf(page, 'First name');
    expect(await run(page, `setValue("${first}", "Ana")`)).toMatchObject({ ok: true });
    expect(await run(page, 'press("Enter")')).toEqual({ ok: true, action: 'press("Enter")' });
    expect(await page.textContent('#submitted')).toBe('submitted:Ana');
    await page.evaluate(() => {
      const out = document.getElementById('submitted');
      if (out) out.textContent = '';
    });
    expect(await run(page, `click("${await idOf(page, 'Save patient')}")`)).toMatchObject({
      ok: true,
    });
    expect(await page.textContent('#submitted')).toBe('submitted:Ana');
    expect(await run(page, 'press("Control+Shift")')).toMatchObject({ ok: true });
    await page.close();
  });

  it('types printable keys into the focused field and moves focus with Tab', async () => {
    const page = await h.open('react-like.html');
    const id = await idOf(page, 'Name');
    await run(page, `setValue("${id}", "Jo")`);
    expect(await run(page, 'press("a")')).toMatchObject({ ok: true });
    expect(await page.inputValue('#name')).toBe('Joa');
    expect(await state(page)).toMatchObject({ name: 'Joa' });
    await run(page, 'press("Tab")');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('plan');
    await page.close();
  });

  it('clicks inside same-origin iframes and open shadow roots', async () => {
    const page = await h.open('frames.html');
    await page.frameLocator('iframe').locator('button').waitFor();
    const tree = (await capture(page)).interactiveTree;
    expect(await run(page, `click("${node(tree, 'Frame button').i}")`)).toMatchObject({ ok: true });
    expect(await page.frameLocator('iframe').locator('button').getAttribute('data-clicks')).toBe(
      '1',
    );
    expect(await run(page, `click("${node(tree, 'Shadow save').i}")`)).toMatchObject({ ok: true });
    expect(await page.getAttribute('patient-card', 'data-saved')).toBe('1');
    expect(await run(page, `setValue("${node(tree, 'Frame field').i}", "in frame")`)).toMatchObject(
      { ok: true },
    );
    expect(await page.frameLocator('iframe').locator('input').inputValue()).toBe('in frame');
    await page.close();
  });

  it('hovers with enter/over events and scrolls the page, a container and to an element', async () => {
    const page = await h.open('long.html');
    await page.evaluate(() => {
      const top = [...document.querySelectorAll('button')].find(
        (b) => b.textContent === 'Top button',
      );
      if (!top) throw new Error('no Top button');
      top.addEventListener('mouseenter', () => (top.dataset.hovered = 'yes'));
    });
    const initial = await capture(page);
    expect(
      await run(page, `hover("${node(initial.interactiveTree, 'Top button').i}")`),
    ).toMatchObject({ ok: true });
    expect(await page.getAttribute('text=Top button', 'data-hovered')).toBe('yes');

    expect(await run(page, 'scroll("down")')).toMatchObject({ ok: true });
    expect(await page.evaluate(() => window.scrollY)).toBe(560); // 0.8 * 700
    expect(await run(page, 'scroll("bottom")')).toMatchObject({ ok: true });
    expect((await capture(page)).scrollPosition).toBe('100%');
    const stuck = await run(page, 'scroll("down")');
    expect(stuck).toMatchObject({
      ok: false,
      code: 'failed',
      error: 'cannot scroll down: already at the bottom',
    });
    expect(await run(page, 'scroll("top")')).toMatchObject({ ok: true });

    const list = must(initial.scrollableContainers[0]).id;
    expect(await run(page, `scroll("${list}")`)).toMatchObject({ ok: true });
    expect(
      await page.evaluate(() => document.getElementById('list')?.scrollTop ?? 0),
    ).toBeGreaterThan(100);

    const all = (await capture(page, { includeOffscreen: true })).interactiveTree;
    expect(await run(page, `scroll("${node(all, 'Bottom button').i}")`)).toMatchObject({
      ok: true,
    });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(3000);
    // Clicking an element out of view scrolls it in first.
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await run(page, `click("${node(all, 'Far below').i}")`)).toMatchObject({ ok: true });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.close();
  });

  it('navigates, goes back and waits', async () => {
    const page = await h.open('plain.html');
    const started = Date.now();
    expect(await run(page, 'wait(0.3)')).toEqual({ ok: true, action: 'wait(0.3)' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    const navigated = page.waitForURL('**/form.html');
    expect(await run(page, `navigate("${h.baseUrl}/form.html")`)).toMatchObject({ ok: true });
    await navigated;
    const back = page.waitForURL('**/plain.html');
    expect(await run(page, 'goBack()')).toEqual({ ok: true, action: 'goBack()' });
    await back;
    await page.close();
  });
});
