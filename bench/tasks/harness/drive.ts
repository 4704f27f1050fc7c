// Driving one task as a user does: open the start page in a tab, open the extension's popup
// for that tab, type the goal, press Start, and wait until the run the service worker keeps in
// chrome.storage ends. Shared by `npm run bench:tasks` and the e2e spec (which passes its own
// Playwright context).
import { DEMO_API } from '@tandem/demo-sites';
import type { BrowserContext, Page, Worker } from 'playwright-core';

export interface ExtensionHandle {
  context: BrowserContext;
  extensionId: string;
}

/** The run as the service worker stores it (`run_<tabId>`), the fields the bench reads. */
export interface RunView {
  status: string;
  taskId?: string;
  result?: string;
  error?: string;
  steps: unknown[];
  /** Requests the extension sent for the run. */
  requests?: number;
}

/** The chrome.* calls made inside the service worker (the bench compiles without its types). */
export interface ChromeApi {
  storage: {
    local: {
      get(key: string | null): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
      remove(keys: string[]): Promise<void>;
    };
  };
  tabs: { query(info: object): Promise<{ id?: number; url?: string }[]> };
}

export async function extensionWorker(context: BrowserContext): Promise<Worker> {
  return (
    context.serviceWorkers()[0] ??
    (await context.waitForEvent('serviceworker', { timeout: 20_000 }))
  );
}

export interface DriveResult {
  run: RunView;
  /** The task's tab, left open for the success check. */
  page: Page;
  /** From pressing Start to the run's end, as the user waits. */
  wallMs: number;
}

/**
 * Back to a clean slate: the demo's seed data (and the plain sites: a reset clears the variant),
 * then `variant` switched on when given; no run or task state in the extension.
 */
async function resetState(
  ext: ExtensionHandle,
  demo: string,
  variant: string | undefined,
): Promise<Worker> {
  await fetch(`${demo}/__reset`, { method: 'POST' });
  if (variant) {
    const res = await fetch(`${demo}${DEMO_API.variant}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: variant }),
    });
    if (!res.ok) throw new Error(`variant ${variant}: ${res.status} ${await res.text()}`);
  }
  for (const page of ext.context.pages()) await page.close().catch(() => undefined);
  const worker = await extensionWorker(ext.context);
  await worker.evaluate(async () => {
    const chrome = (globalThis as unknown as { chrome: ChromeApi }).chrome;
    const all = await chrome.storage.local.get(null);
    await chrome.storage.local.remove(
      Object.keys(all).filter((k) => k.startsWith('run_') || k.startsWith('task_')),
    );
  });
  return worker;
}

async function runState(worker: Worker, tabId: number): Promise<RunView | null> {
  return worker.evaluate(async (key) => {
    const chrome = (globalThis as unknown as { chrome: ChromeApi }).chrome;
    return ((await chrome.storage.local.get(key))[key] as RunView | undefined) ?? null;
  }, `run_${tabId}`);
}

export async function driveTask(
  ext: ExtensionHandle,
  options: {
    demo: string;
    start: string;
    goal: string;
    timeoutMs: number;
    /** A demo-site variant (@tandem/demo-sites' DEMO_VARIANTS) for this run only. */
    variant?: string;
  },
): Promise<DriveResult> {
  const worker = await resetState(ext, options.demo, options.variant);
  const page = await ext.context.newPage();
  await page.goto(`${options.demo}${options.start}`);
  // Lists render from the demo API after load; the agent should see the page a user sees.
  await page.waitForLoadState('networkidle');
  const url = page.url();
  const tabId = await worker.evaluate(async (u) => {
    const chrome = (globalThis as unknown as { chrome: ChromeApi }).chrome;
    return (await chrome.tabs.query({})).find((t) => t.url === u)?.id ?? -1;
  }, url);
  if (tabId < 0) throw new Error(`no tab for ${url}`);

  const popup = await ext.context.newPage();
  await popup.goto(`chrome-extension://${ext.extensionId}/src/popup/index.html?tab=${tabId}`);
  await popup.getByLabel('What should I do on this page?').fill(options.goal);
  const started = Date.now();
  await popup.getByRole('button', { name: 'Start' }).click();

  const deadline = started + options.timeoutMs;
  let run: RunView | null = null;
  while (Date.now() < deadline) {
    run = await runState(worker, tabId).catch(() => run);
    if (run && run.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const wallMs = Date.now() - started;
  await popup.close();
  if (!run) throw new Error('the run never started');
  if (run.status === 'running') return { run: { ...run, status: 'timed out' }, page, wallMs };
  return { run, page, wallMs };
}
