// The page's side of the task's limits: where clicks lead (the tree's `h`, refused
// clicks and navigations), secrets typed only on their sites, high-risk forms told apart, and
// password values that never leave the page, on a real page in Chromium.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetFacts } from '../src/index';
import type { Harness } from './helpers/harness';
import { startHarness } from './helpers/harness';
import { capture, node, pageState } from './helpers/page-api';

let h: Harness;
let page: Page;
let here: string;
beforeAll(async () => {
  h = await startHarness();
  page = await h.open('guard.html');
  here = new URL(h.baseUrl).host;
});
afterAll(async () => {
  await page?.close();
  await h?.close();
});

const runLimited = (action: string, options: { allowedSites?: string[]; typeOnlyOn?: string[] }) =>
  page.evaluate(({ a, o }) => window.TandemPage.execute(a, o), { a: action, o: options });
const inspect = (ids: string[]): Promise<Record<string, TargetFacts>> =>
  page.evaluate((i) => window.TandemPage.inspectTargets(i), ids);

describe('where a click leads', () => {
  it('the tree names the other site of links and submit buttons, not of same-site ones', async () => {
    const tree = (await capture(page)).interactiveTree;
    expect(node(tree, 'Same site').h).toBeUndefined();
    expect(node(tree, 'Verify your identity').h).toBe('other.example');
    expect(node(tree, 'Partner logo').h).toBe('other.example');
    expect(node(tree, 'Send comment').h).toBe('other.example');
    expect(node(tree, 'Submit').h).toBeUndefined();
  });

  it('refuses a click or navigate that leaves the allowed sites, before anything happens', async () => {
    const tree = (await capture(page)).interactiveTree;
    const sites = [here];
    for (const name of ['Verify your identity', 'Partner logo', 'Send comment'])
      expect(await runLimited(`click("${node(tree, name).i}")`, { allowedSites: sites })).toEqual({
        ok: false,
        action: `click("${node(tree, name).i}")`,
        error: `other.example is not one of this task's sites (${here})`,
        code: 'blocked',
      });
    expect(
      await runLimited('navigate("http://other.example/collect?x=1")', { allowedSites: sites }),
    ).toMatchObject({ ok: false, code: 'blocked' });
    expect(page.url()).toBe(`${h.baseUrl}/guard.html`);
    // Hovering a link goes nowhere: allowed.
    const link = node(tree, 'Verify your identity').i;
    expect(await runLimited(`hover("${link}")`, { allowedSites: sites })).toMatchObject({
      ok: true,
    });
  });

  it('tells payment, delete and message forms by what the form says', async () => {
    const tree = (await capture(page)).interactiveTree;
    const id = (name: string) => node(tree, name).i;
    const facts = await inspect([
      id('Submit'),
      id('Confirm'),
      id('Go'),
      id('Preview'),
      id('Same site'),
      'nope',
    ]);
    expect(facts[id('Submit')]).toEqual({
      role: 'btn',
      name: 'Submit',
      form: 'payment',
      leadsTo: here,
    });
    expect(facts[id('Confirm')]).toMatchObject({ form: 'delete' });
    expect(facts[id('Go')]).toMatchObject({ form: 'message' });
    expect(facts[id('Preview')]).toMatchObject({ form: null, leadsTo: null });
    expect(facts[id('Same site')]).toMatchObject({ form: null, leadsTo: here });
    expect(facts).not.toHaveProperty('nope');
  });
});

describe('secrets and passwords', () => {
  it('types a secret only on its own sites', async () => {
    const note = node((await capture(page)).interactiveTree, 'Note').i;
    expect(
      await runLimited(`setValue("${note}", "s3cret")`, { typeOnlyOn: ['bank.example'] }),
    ).toEqual({
      ok: false,
      action: `setValue("${note}", "s3cret")`,
      error: `this secret may only be typed on bank.example, not on ${here}`,
      code: 'blocked',
    });
    expect(await page.inputValue('#note')).toBe('');
    expect(await runLimited(`setValue("${note}", "s3cret")`, { typeOnlyOn: [here] })).toMatchObject(
      {
        ok: true,
      },
    );
    expect(await page.inputValue('#note')).toBe('s3cret');
  });

  it('no capture carries a password value, not even one the markup holds', async () => {
    const full = await pageState(page, { mode: 'full' });
    expect(full.dom).not.toContain('hunter2-from-markup');
    expect(full.dom).toContain('value="********"');
    const tree = await pageState(page, { mode: 'semantic_v3' });
    expect(JSON.stringify(tree)).not.toContain('hunter2');
    expect(node(tree.interactiveTree ?? [], 'Password').v).toBe('********');
  });
});
