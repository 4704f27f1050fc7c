// captureTree in real Chromium: roles, names, values, states, pruning, frames, shadow roots,
// occlusion, scroll containers, Sentinel fields and the fallback modes.
import { InteractRequest, SemanticNodeV3 } from '@tandem/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from './helpers/harness';
import { startHarness } from './helpers/harness';
import { capture, must, names, node, pageState, run } from './helpers/page-api';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('form roles, names, values and states', () => {
  let page: Page;
  beforeAll(async () => {
    page = await h.open('form.html');
  });
  afterAll(() => page.close());

  it('names fields from label[for], wrapping label, aria-labelledby, placeholder and title', async () => {
    const { interactiveTree: tree } = await capture(page);
    expect(node(tree, 'First name')).toMatchObject({ r: 'inp', v: 'Jas', s: 'required' });
    expect(node(tree, 'Last name')).toMatchObject({ r: 'inp', v: '' });
    expect(node(tree, 'Date of birth').r).toBe('inp');
    expect(node(tree, 'Email address')).toMatchObject({ r: 'inp', s: 'invalid' });
    expect(node(tree, 'Search records').r).toBe('inp');
    expect(node(tree, 'Notes')).toMatchObject({ r: 'txt', v: 'Allergic to penicillin' });
    expect(node(tree, 'Record number')).toMatchObject({ v: 'R-17', s: 'readonly' });
  });

  it('masks passwords and never sends their value', async () => {
    const result = await capture(page);
    expect(node(result.interactiveTree, 'Password').v).toBe('********');
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });

  it('maps native and ARIA widgets to short roles with their states', async () => {
    const { interactiveTree: tree } = await capture(page);
    expect(node(tree, 'I consent')).toMatchObject({ r: 'chk', s: 'checked' });
    expect(node(tree, 'Male')).toMatchObject({ r: 'radio', s: 'checked' });
    expect(node(tree, 'Female').s).toBeUndefined();
    expect(node(tree, 'Country')).toMatchObject({ r: 'sel', v: 'Australia' });
    expect(node(tree, 'Pain level')).toMatchObject({ r: 'sld', v: '3' });
    expect(node(tree, 'Summary')).toMatchObject({ r: 'edit', v: 'Stable condition' });
    expect(node(tree, 'Save patient').r).toBe('btn');
    expect(node(tree, 'Save and close').r).toBe('btn');
    expect(node(tree, 'Delete')).toMatchObject({ r: 'btn', s: 'disabled' });
    expect(node(tree, 'Close form').r).toBe('btn');
    expect(node(tree, 'Print').r).toBe('btn');
    expect(node(tree, 'More')).toMatchObject({ r: 'btn', s: 'collapsed' });
    expect(node(tree, 'Notifications')).toMatchObject({ r: 'sw', s: 'checked' });
    expect(node(tree, 'Overview')).toMatchObject({ r: 'tab', s: 'selected' });
    expect(node(tree, 'History').r).toBe('tab');
    expect(node(tree, 'Advanced')).toMatchObject({ r: 'btn', s: 'collapsed' });
    expect(node(tree, 'Patient list').r).toBe('link');
    expect(node(tree, 'Clickable span').r).toBe('btn');
  });

  it('leaves out unrendered and non-interactive elements, keeps visible aria-hidden ones', async () => {
    const all = names((await capture(page)).interactiveTree);
    // aria-hidden hides from screen readers, not from the eye: users (and the agent) click it.
    expect(all).toContain('Hidden by aria');
    for (const hidden of ['Display none', 'Visibility hidden', 'Hidden field', 'No href anchor']) {
      expect(all).not.toContain(hidden);
    }
  });

  it('reports focus and geometry in viewport coordinates, and validates against the contract', async () => {
    await page.focus('#first');
    const result = await capture(page, { includeBox: true });
    const first = node(result.interactiveTree, 'First name');
    expect(first.s).toBe('required,focused');
    const box = must(await page.locator('#first').boundingBox(), 'box');
    expect(first.box).toEqual([
      Math.round(box.x),
      Math.round(box.y),
      Math.round(box.width),
      Math.round(box.height),
    ]);
    expect(first.xy).toEqual([
      Math.round(box.x + box.width / 2),
      Math.round(box.y + box.height / 2),
    ]);
    for (const n of result.interactiveTree) expect(SemanticNodeV3.safeParse(n).success).toBe(true);
    const request = InteractRequest.safeParse({
      query: 'add a patient',
      domMode: 'semantic_v3',
      ...result,
    });
    expect(request.success).toBe(true);
    expect(result).toMatchObject({
      pageTitle: 'Patient form',
      viewport: { width: 1000, height: 700 },
      scrollPosition: '0%',
    });
  });

  it('gives ids as data-llm-id attributes', async () => {
    const { interactiveTree: tree } = await capture(page);
    const id = node(tree, 'First name').i;
    expect(node(tree, 'First name').box).toBeUndefined(); // only with includeBox
    expect(await page.getAttribute('#first', 'data-llm-id')).toBe(id);
    expect(new Set(tree.map((n) => n.i)).size).toBe(tree.length);
  });
});

describe('a form in view keeps its submit button below the fold', () => {
  let page: Page;
  beforeAll(async () => {
    page = await h.open('long-form.html');
  });
  afterAll(() => page.close());

  it('keeps the submit button of a form whose fields are in view, in tree order, and nothing else below', async () => {
    const tree = names((await capture(page)).interactiveTree);
    expect(tree).toEqual(['First name', 'Last name', 'Save', 'Remote field', 'Send remote']);
    // Not a submit button, not a form in view, not part of a form: pruned as before.
    expect(tree).not.toContain('Preview');
    expect(tree).not.toContain('Apply coupon');
    expect(tree).not.toContain('Help');
  });

  it('clicking it scrolls it into view and sends the form', async () => {
    const { interactiveTree } = await capture(page);
    const save = node(interactiveTree, 'Save');
    expect(await run(page, `click("${save.i}")`)).toMatchObject({ ok: true });
    expect(await page.title()).toBe('Saved');
  });
});

describe('viewport pruning and scroll containers', () => {
  let page: Page;
  beforeAll(async () => {
    page = await h.open('long.html');
  });
  afterAll(() => page.close());

  it('keeps the viewport plus a margin band, and everything on request', async () => {
    const defaults = names((await capture(page)).interactiveTree);
    expect(defaults).toContain('Top button');
    expect(defaults).toContain('In margin'); // 800px < 700 + 0.25 * 700
    expect(defaults).not.toContain('Far below');
    expect(defaults).not.toContain('Bottom button');

    const tight = names((await capture(page, { viewportMargin: 0 })).interactiveTree);
    expect(tight).toContain('Top button');
    expect(tight).not.toContain('In margin');

    const wide = names((await capture(page, { viewportMargin: 1 })).interactiveTree);
    expect(wide).toContain('Far below');

    const all = names((await capture(page, { includeOffscreen: true })).interactiveTree);
    expect(all).toEqual(expect.arrayContaining(['Far below', 'Bottom button', 'Item 30']));
  });

  it('prunes items scrolled out of a scroll container and reports the container', async () => {
    const result = await capture(page);
    const items = names(result.interactiveTree).filter((n) => n?.startsWith('Item '));
    // 200px box of 30px rows, plus a 175px margin inside the container: rows 1..~13, never 30.
    expect(items).toContain('Item 1');
    expect(items).not.toContain('Item 30');
    expect(names(result.interactiveTree)).not.toContain('Collapsed panel item');
    expect(result.scrollableContainers).toHaveLength(1);
    const [list] = result.scrollableContainers;
    expect(list).toMatchObject({ n: 'Results', depth: '0%', hasMore: true });
    expect(must(list).h).toBeGreaterThan(800);
    expect(await page.getAttribute('#list', 'data-llm-id')).toBe(must(list).id);

    await page.evaluate(() => {
      const box = document.getElementById('list');
      if (box) box.scrollTop = box.scrollHeight;
    });
    const scrolled = await capture(page);
    expect(scrolled.scrollableContainers[0]).toMatchObject({
      id: must(list).id,
      depth: '100%',
      hasMore: false,
    });
    expect(names(scrolled.interactiveTree)).toContain('Item 30');
  });

  it('reports the page scroll depth and shifts with the viewport', async () => {
    await page.evaluate(() => window.scrollTo(0, 1650)); // (4000 - 700) / 2
    expect((await capture(page)).scrollPosition).toBe('50%');
    await page.evaluate(() => window.scrollTo(0, 1000));
    const result = await capture(page, { viewportMargin: 0 });
    expect(result.scrollPosition).toBe('30%');
    expect(names(result.interactiveTree)).toEqual(['Far below']);
    expect(must(node(result.interactiveTree, 'Far below').xy)[1]).toBeLessThan(700);
    await page.evaluate(() => window.scrollTo(0, 0));
  });
});

describe('frames and shadow roots', () => {
  let page: Page;
  beforeAll(async () => {
    page = await h.open('frames.html');
    await page.frameLocator('iframe').locator('button').waitFor();
  });
  afterAll(() => page.close());

  it('walks same-origin iframes with a frame number and top-viewport coordinates', async () => {
    const { interactiveTree: tree } = await capture(page, { includeBox: true });
    const inFrame = node(tree, 'Frame button');
    expect(inFrame.f).toBe(1);
    // iframe content starts at (100 + 2 border, 150 + 2 border); the button sits at (10, 20).
    expect(inFrame.box).toEqual([112, 172, 100, 30]);
    expect(inFrame.xy).toEqual([162, 187]);
    expect(node(tree, 'Frame field').f).toBe(1);
    expect(node(tree, 'Main button').f).toBeUndefined();
  });

  it('walks open shadow roots, nested ones included, with labels scoped to the root', async () => {
    const { interactiveTree: tree } = await capture(page);
    expect(node(tree, 'Nickname')).toMatchObject({ r: 'inp', v: 'JJ' });
    expect(node(tree, 'Shadow save').occ).toBeUndefined();
    expect(node(tree, 'Deep link').r).toBe('link');
  });
});

describe('occlusion', () => {
  it('marks elements under a modal overlay as occluded, not the dialog itself', async () => {
    const page = await h.open('modal.html');
    const before = await capture(page);
    expect(node(before.interactiveTree, 'Behind button').occ).toBeUndefined();
    await page.click('#open');
    const { interactiveTree: tree } = await capture(page);
    expect(node(tree, 'Behind button').occ).toBe(true);
    expect(node(tree, 'Open dialog').occ).toBe(true);
    expect(node(tree, 'Confirm').occ).toBeUndefined();
    await page.close();
  });
});

describe('Sentinel fields and recent events', () => {
  it('detects error classes and ignores hidden feedback, wrappers and danger buttons', async () => {
    const page = await h.open('messages.html');
    const result = await capture(page);
    expect(result.hasErrors).toBe(true);
    expect(result.errors_detected).toEqual(['Could not save: the server is unavailable.']);
    expect(result.hasSuccess).toBe(false);
    expect(result.verification_passed).toBe(false);

    await page.click('text=Apply');
    const after = await capture(page);
    expect(after.success_messages).toEqual(['Changes saved successfully']);
    expect(after.hasSuccess).toBe(true);
    expect(after.recentEvents).toContain("added: toast 'Changes saved successfully'");
    await page.close();
  });

  it('streams mutations between captures and starts empty', async () => {
    const page = await h.open('stability.html');
    const first = await capture(page);
    expect(first.recentEvents).toEqual([]);
    await page.click('#dialog');
    const second = await capture(page);
    expect(second.recentEvents).toContain("added: dialog 'Patient saved'");
    const third = await capture(page);
    expect(third.recentEvents).toEqual([]);
    await page.close();
  });
});

describe('modes', () => {
  it('falls back from an empty V3 tree to semantic mode, and builds skeleton and full on request', async () => {
    const page = await h.open('plain.html');
    const v3 = await pageState(page);
    expect(v3.domMode).toBe('semantic');
    expect(v3.interactiveTree).toEqual([
      expect.objectContaining({ r: 'link', n: 'Far away link' }),
    ]);
    expect(must(v3.interactiveTree)[0]).not.toHaveProperty('xy');
    expect(InteractRequest.safeParse({ query: 'q', ...v3 }).success).toBe(true);

    const skeleton = await pageState(page, { mode: 'skeleton' });
    expect(skeleton.skeletonDom).toMatch(/^<a data-llm-id="\d+" href="#end">Far away link<\/a>$/);
    expect(InteractRequest.safeParse({ query: 'q', ...skeleton }).success).toBe(true);

    const full = await pageState(page, { mode: 'full' });
    expect(full.dom).toContain('Nothing to click here.');
    expect(InteractRequest.safeParse({ query: 'q', ...full }).success).toBe(true);
    await page.close();
  });

  it('leaves what the user cannot see out of the full DOM: injected text hides there', async () => {
    const page = await h.open('hidden-text.html');
    const { dom = '' } = await pageState(page, { mode: 'full' });
    expect(dom).toContain('Visitors park in the Elm Street garage.');
    for (const hidden of [
      'INLINE-NONE',
      'STYLESHEET-NONE',
      'HIDDEN-ATTRIBUTE',
      'INVISIBLE',
      'hunter2',
    ])
      expect(dom).not.toContain(hidden);
    // A select's options have no box of their own, and the model chooses among them.
    expect(dom).toContain('<option>Follow-up</option>');
    // The page itself is untouched.
    expect(await page.locator('body').innerHTML()).toContain('INLINE-NONE');
    await page.close();
  });

  it('captures hybrid mode as the V3 tree without fallback, and counts what else the viewport shows', async () => {
    const plain = await h.open('plain.html');
    // The only link is far below: V3 falls back, hybrid keeps its empty tree for the screenshot.
    const hybrid = await pageState(plain, { mode: 'hybrid' });
    expect(hybrid.domMode).toBe('hybrid');
    expect(hybrid.interactiveTree).toEqual([]);
    expect(hybrid.viewportContent).toEqual({ canvases: 0, images: 0, textLength: 36 });
    expect(
      InteractRequest.safeParse({ query: 'q', ...hybrid, screenshot: '/9j/4AAQ' }).success,
    ).toBe(true);
    expect((await pageState(plain)).viewportContent).toEqual(hybrid.viewportContent);
    await plain.close();

    const canvas = await h.open('canvas.html');
    const v3 = await pageState(canvas, { mode: 'hybrid' });
    expect(v3.viewportContent).toMatchObject({ canvases: 1, images: 0 });
    // The canvas's Order button is pixels only; the tree has the real controls, with points.
    expect(must(v3.interactiveTree).map((n) => n.n)).not.toContain('Order');
    expect(must(v3.interactiveTree).every((n) => n.xy !== undefined)).toBe(true);
    await canvas.close();
  });

  it('returns the V3 tree by default and the long-key semantic nodes on request', async () => {
    const page = await h.open('form.html');
    const state = await pageState(page);
    expect(state.domMode).toBe('semantic_v3');
    expect(must(state.interactiveTree).length).toBeGreaterThan(20);
    const semantic = await page.evaluate(() => window.TandemPage.captureSemantic());
    expect(semantic).toContainEqual({
      id: expect.any(String),
      role: 'inp',
      name: 'First name',
      value: 'Jas',
      state: 'required',
    });
    const skeleton = await page.evaluate(() => window.TandemPage.captureSkeleton());
    expect(skeleton).toContain('<input data-llm-id=');
    expect(skeleton).toContain('value="********"');
    expect(skeleton).not.toContain('hunter2');
    expect(skeleton).toMatch(
      /<select data-llm-id="\d+"><option>New Zealand<\/option><option selected>Australia<\/option>/,
    );
    await page.close();
  });
});

describe('performance', () => {
  it('captures a synthetic 5,000-element page well inside the budget', async () => {
    const page = await h.open('plain.html');
    const timings = await page.evaluate(() => {
      const root = document.createElement('div');
      for (let i = 0; i < 300; i++) {
        const card = document.createElement('section');
        card.innerHTML = `<h3>Item ${i}</h3><p>Description <b>${i}</b> <i>text</i></p><div><span>€${i}</span><a href="#i${i}">Open ${i}</a><button>Add ${i}</button><input aria-label="Qty ${i}"></div><ul><li>a</li><li>b</li><li>c</li></ul><footer><small>x</small><em>y</em></footer>`;
        root.appendChild(card);
      }
      document.body.appendChild(root);
      const times: number[] = [];
      for (let i = 0; i < 15; i++) {
        const start = performance.now();
        window.TandemPage.captureTree();
        times.push(performance.now() - start);
      }
      return {
        elements: document.getElementsByTagName('*').length,
        times: times.sort((a, b) => a - b),
      };
    });
    expect(timings.elements).toBeGreaterThanOrEqual(5000);
    // The bench measures p95 against the 30 ms target; here a generous bound catches regressions
    // (an accidental per-element getComputedStyle costs far more) without flaking on slow CI.
    expect(timings.times[7]).toBeLessThan(100);
    await page.close();
  });
});
