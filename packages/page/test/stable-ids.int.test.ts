// Stable ids across re-renders, and the executor's identity check before acting.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from './helpers/harness';
import { startHarness } from './helpers/harness';
import { capture, must, node, run } from './helpers/page-api';

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await page?.close();
  page = await h.open('rerender.html');
});

const idsByName = async (p: Page): Promise<Record<string, string>> =>
  Object.fromEntries((await capture(p)).interactiveTree.map((n) => [n.n ?? '', n.i]));

describe('stable ids', () => {
  it('keeps ids for elements that stay, across captures', async () => {
    const first = await idsByName(page);
    const second = await idsByName(page);
    expect(second).toEqual(first);
    expect(Object.keys(first)).toEqual(['Edit Alice', 'Edit Bob', 'Edit Carol', 'Filter', 'Apply']);
  });

  it('gives a re-rendered twin (same role, name and position) its old id back', async () => {
    const before = await idsByName(page);
    const replaced = await page.evaluate(() => {
      const old = document.querySelector('#rows button');
      window.renderRows(['Alice', 'Bob', 'Carol']);
      return (
        old !== null &&
        !old.isConnected &&
        document.querySelector('#rows button')?.hasAttribute('data-llm-id') === false
      );
    });
    expect(replaced).toBe(true);
    expect(await idsByName(page)).toEqual(before);
  });

  it('gives genuinely new elements new, higher ids and never reuses an id of a live element', async () => {
    const before = await idsByName(page);
    await page.evaluate(() => window.renderRows(['Alice', 'Bob', 'Carol', 'Dave']));
    const after = await idsByName(page);
    expect(after['Edit Alice']).toBe(before['Edit Alice']);
    expect(after['Edit Carol']).toBe(before['Edit Carol']);
    const maxBefore = Math.max(...Object.values(before).map(Number));
    expect(Number(after['Edit Dave'])).toBeGreaterThan(maxBefore);

    // A row rendered where Bob was, under another name, is a different fingerprint: new id.
    await page.evaluate(() => window.renderRows(['Alice', 'Zed', 'Carol', 'Dave']));
    const third = await idsByName(page);
    expect(third['Edit Zed']).not.toBe(before['Edit Bob']);
    expect(Number(third['Edit Zed'])).toBeGreaterThan(Number(after['Edit Dave']));
  });

  it('gives a cloned element (copied data-llm-id) its own id', async () => {
    await capture(page);
    await page.evaluate(() => {
      const li = document.querySelector('#rows li');
      const copy = li?.cloneNode(true) as HTMLElement;
      const button = copy.querySelector('button');
      if (!li || !button) throw new Error('fixture changed');
      button.textContent = 'Edit Copy';
      li.after(copy);
    });
    const tree = (await capture(page)).interactiveTree;
    expect(node(tree, 'Edit Copy').i).not.toBe(node(tree, 'Edit Alice').i);
    expect(new Set(tree.map((n) => n.i)).size).toBe(tree.length);
  });

  it('keeps counting above ids already in the page when the registry is fresh', async () => {
    await page.evaluate(() => {
      document.querySelector('#rows button')?.setAttribute('data-llm-id', '500');
    });
    const tree = (await capture(page)).interactiveTree;
    expect(node(tree, 'Edit Alice').i).toBe('500');
    expect(tree.filter((n) => n.i !== '500').every((n) => Number(n.i) > 500)).toBe(true);
  });
});

describe('identity check before acting', () => {
  it('re-finds a re-rendered element by fingerprint and acts on it', async () => {
    const bob = must((await idsByName(page))['Edit Bob']);
    await page.evaluate(() => window.renderRows(['Alice', 'Bob', 'Carol']));
    const result = await run(page, `click("${bob}")`);
    expect(result).toMatchObject({ ok: true, action: `click("${bob}")` });
    expect(result.ok && result.detail).toContain('re-rendered');
    expect(await page.evaluate(() => window.clicks)).toEqual(['Edit Bob']);
    // The id moved to the new element.
    expect(await page.getAttribute('#rows li:nth-child(2) button', 'data-llm-id')).toBe(bob);
  });

  it('refuses an element whose node now shows other content', async () => {
    const alice = must((await idsByName(page))['Edit Alice']);
    await page.evaluate(() => window.relabelRows(['Xavier', 'Bob', 'Carol']));
    const result = await run(page, `click("${alice}")`);
    expect(result).toMatchObject({ ok: false, code: 'element_changed' });
    expect(!result.ok && result.error).toBe(
      `element changed: ${alice} was btn 'Edit Alice' when captured, now btn 'Edit Xavier'`,
    );
    expect(await page.evaluate(() => window.clicks)).toEqual([]);
  });

  it('does not follow content to a node in another position (the fingerprint includes it)', async () => {
    const ids = await idsByName(page);
    // Alice's node now shows Carol, and Carol's shows Alice: positions differ, so the
    // fingerprint (which includes the position) matches neither node.
    await page.evaluate(() => window.relabelRows(['Carol', 'Bob', 'Alice']));
    const result = await run(page, `click("${ids['Edit Alice']}")`);
    expect(result).toMatchObject({ ok: false, code: 'element_changed' });
    expect(await page.evaluate(() => window.clicks)).toEqual([]);
  });

  it('reports an element that is gone as not_found, and an unknown id likewise', async () => {
    const carol = must((await idsByName(page))['Edit Carol']);
    await page.evaluate(() => window.renderRows(['Alice', 'Bob']));
    expect(await run(page, `click("${carol}")`)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await run(page, 'click("9999")')).toMatchObject({ ok: false, code: 'not_found' });
  });
});

declare global {
  interface Window {
    renderRows(names: string[]): void;
    relabelRows(names: string[]): void;
    clicks: string[];
  }
}
