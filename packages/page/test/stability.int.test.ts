// waitForStability and client observations against a page with a spinner, a slow request,
// a ticking clock and a pushState button.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from './helpers/harness';
import { startHarness } from './helpers/harness';
import { capture, must, node, observe, stability } from './helpers/page-api';

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  page = await h.open('stability.html');
});
afterEach(async () => {
  await page.close();
});

const idOf = async (name: string): Promise<string> =>
  node((await capture(page)).interactiveTree, name).i;

describe('waitForStability', () => {
  it('waits for the spinner and the slow request, then the result is on the page', async () => {
    const save = await idOf('Save');
    const { result, observations, stability: waited } = await observe(page, `click("${save}")`);
    expect(result).toMatchObject({ ok: true });
    expect(waited).toMatchObject({
      stable: true,
      didNetworkOccur: true,
      didDomMutate: true,
      didUrlChange: false,
    });
    // 50 ms before the request + 400 ms server delay + 500 ms network idle after it.
    expect(must(waited).waitedMs).toBeGreaterThanOrEqual(900);
    expect(must(waited).waitedMs).toBeLessThan(2500);
    expect(observations).toEqual({
      didNetworkOccur: true,
      didDomMutate: true,
      didUrlChange: false,
    });
    expect(h.requests).toContain('/api/slow?ms=400');
    expect(await page.locator('#spinner').count()).toBe(0);
    const after = await capture(page);
    expect(after.hasSuccess).toBe(true);
    expect(after.success_messages).toEqual(['Patient saved successfully']);
    expect(after.verification_passed).toBe(true);
  });

  it('waits at least minimumWaitMs on a quiet page and reports nothing happened', async () => {
    const quiet = await stability(page);
    expect(quiet).toMatchObject({
      stable: true,
      didNetworkOccur: false,
      didDomMutate: false,
      didUrlChange: false,
    });
    expect(quiet.waitedMs).toBeGreaterThanOrEqual(500);
    expect(quiet.waitedMs).toBeLessThan(1000);
  });

  it('gives up at maximumWaitMs when the DOM never settles', async () => {
    await page.click('#ticker');
    const busy = await stability(page, { maximumWaitMs: 1000 });
    expect(busy.stable).toBe(false);
    expect(busy.didDomMutate).toBe(true);
    expect(busy.waitedMs).toBeGreaterThanOrEqual(1000);
    expect(busy.waitedMs).toBeLessThan(1400);
  });

  it('counts XMLHttpRequest in flight too', async () => {
    const observed = await page.evaluate(() =>
      window.TandemPage.observeAction(() =>
        (window as unknown as { loadWithXhr(): void }).loadWithXhr(),
      ),
    );
    expect(observed.stability).toMatchObject({
      stable: true,
      didNetworkOccur: true,
      didDomMutate: true,
    });
    expect(must(observed.stability).waitedMs).toBeGreaterThanOrEqual(800);
    expect(await page.textContent('#out')).toBe('xhr done');
  });

  it('does not count its own data-llm-id writes as DOM activity', async () => {
    const observed = await page.evaluate(() =>
      window.TandemPage.observeAction(() => window.TandemPage.captureTree(), {
        stability: { minimumWaitMs: 100 },
      }),
    );
    expect(observed.observations).toEqual({
      didNetworkOccur: false,
      didDomMutate: false,
      didUrlChange: false,
    });
  });
});

describe('client observations', () => {
  it('reports a pushState URL change', async () => {
    const push = await idOf('Next step');
    const { observations } = await observe(page, `click("${push}")`, { minimumWaitMs: 100 });
    expect(observations).toEqual({
      didNetworkOccur: false,
      didDomMutate: false,
      didUrlChange: true,
    });
    expect(page.url()).toContain('?step=2');
  });

  it('startObservation reports DOM changes without waiting', async () => {
    const result = await page.evaluate(() => {
      const observation = window.TandemPage.startObservation();
      document.body.appendChild(document.createElement('p'));
      return observation.stop();
    });
    expect(result).toEqual({ didNetworkOccur: false, didDomMutate: true, didUrlChange: false });
  });

  it("sees the page's requests from an isolated world (content script) through the MAIN-world tracker", async () => {
    // Like the extension: the page's world gets only the network tracker (here via the test's
    // init script, which also installs it there), the capture/executor runs in an isolated world.
    const cdp = await page.context().newCDPSession(page);
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const { executionContextId } = await cdp.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: 'tandem-content-script',
    });
    await cdp.send('Runtime.evaluate', {
      expression: h.bundles.page,
      contextId: executionContextId,
    });
    const evaluated = await cdp.send('Runtime.evaluate', {
      contextId: executionContextId,
      awaitPromise: true,
      returnByValue: true,
      expression: `(async () => {
        const isolated = typeof window.save !== 'function';
        const observed = await window.TandemPage.observeAction(() => document.getElementById('save-slow').click());
        return { isolated, stability: observed.stability };
      })()`,
    });
    const value = evaluated.result.value as {
      isolated: boolean;
      stability: { stable: boolean; waitedMs: number; didNetworkOccur: boolean };
    };
    expect(value.isolated).toBe(true);
    // Without the bridge the isolated world would call the page stable after ~500 ms, while
    // the 1.2 s request was still running.
    expect(value.stability.stable).toBe(true);
    expect(value.stability.didNetworkOccur).toBe(true);
    expect(value.stability.waitedMs).toBeGreaterThanOrEqual(1700);
    await cdp.detach();
  });

  it('installs the network wrappers only once', async () => {
    const wrapped = await page.evaluate(() => {
      const before = window.fetch;
      window.TandemPage.installNetworkTracker();
      window.TandemPage.installNetworkTracker();
      return window.fetch === before;
    });
    expect(wrapped).toBe(true);
  });
});
