// Playwright fixtures: Chromium with the real built extension loaded (persistent context, as
// MV3 extensions need), configured with the e2e server's URL and key; helpers to drive the
// popup and read the run state the service worker keeps in chrome.storage.
import { extensionLaunchOptions } from '@tandem/chromium';
import {
  test as base,
  chromium,
  expect,
  type BrowserContext,
  type Page,
  type Worker,
} from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { e2eEnv, type E2eEnv } from './env';

export const EXTENSION_DIST = path.resolve(import.meta.dirname, '../../apps/extension/dist');

export interface RunStateView {
  status: string;
  steps: {
    thought: string;
    /** The step in plain language ("Clicked “Save”"). */
    summary?: string;
    action?: string;
    chain?: string[];
    verification?: { success: boolean; reason: string; verificationTier?: number };
  }[];
  taskId?: string;
  sessionId?: string;
  collected?: Record<string, number>;
  duplicatesSkipped?: number;
  result?: string;
  error?: string;
  question?: string;
  /** Requests the server answered, when the run started and its last write (epoch ms). */
  requests?: number;
  startedAt?: number;
  updatedAt?: number;
}

export interface Extension {
  context: BrowserContext;
  worker: Worker;
  id: string;
  env: E2eEnv;
}

async function serviceWorker(context: BrowserContext): Promise<Worker> {
  return (
    context.serviceWorkers()[0] ??
    (await context.waitForEvent('serviceworker', { timeout: 20_000 }))
  );
}

/**
 * Deletes every routine of the suite's server (each DELETE takes all of a routine's versions):
 * for specs whose tests repeat a goal, which would otherwise rerun an earlier test's routine.
 */
export async function forgetRoutines(env: E2eEnv): Promise<void> {
  const headers = { authorization: `Bearer ${env.apiKey}` };
  for (;;) {
    const res = await fetch(`${env.server}/api/routines?limit=200`, { headers });
    if (!res.ok) throw new Error(`GET /api/routines: ${res.status} ${await res.text()}`);
    const { items } = (await res.json()) as { items: { id: string }[] };
    if (items.length === 0) return;
    for (const { id } of items) {
      const gone = await fetch(`${env.server}/api/routines/${id}`, { method: 'DELETE', headers });
      if (!gone.ok && gone.status !== 404)
        throw new Error(`DELETE /api/routines/${id}: ${gone.status}`);
    }
  }
}

/** The spec file the suite server's routines were last cleared for (one worker, one file at a time). */
let routinesClearedFor: string | null = null;
/** The last test completed a run in the extension: it may have left a routine. */
let completedARun = false;

export const test = base.extend<{ ext: Extension }, { extWorker: Extension }>({
  extWorker: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const env = e2eEnv();
      const profile = mkdtempSync(path.join(tmpdir(), 'tandem-e2e-profile-'));
      const context = await chromium.launchPersistentContext(
        profile,
        extensionLaunchOptions(EXTENSION_DIST),
      );
      const worker = await serviceWorker(context);
      const id = new URL(worker.url()).host;
      await worker.evaluate((settings) => chrome.storage.local.set({ settings }), {
        serverUrl: env.server,
        apiKey: env.apiKey,
      });
      await use({ context, worker, id, env });
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  ext: async ({ extWorker }, use, testInfo) => {
    // Each test starts from fresh demo data, no task state and no saved routines (a goal an
    // earlier test completed would rerun as one); settings stay. Routines are cleared when a
    // new spec file starts or the last test completed a run: clearing them before every test
    // would spend the server's default rate limit on bursts of short tests.
    await fetch(`${extWorker.env.demo}/__reset`, { method: 'POST' });
    if (routinesClearedFor !== testInfo.file || completedARun) {
      await forgetRoutines(extWorker.env);
      routinesClearedFor = testInfo.file;
      completedARun = false;
    }
    const worker = await serviceWorker(extWorker.context);
    await worker.evaluate(async () => {
      const all = await chrome.storage.local.get(null);
      await chrome.storage.local.remove(
        Object.keys(all).filter((k) => k.startsWith('run_') || k.startsWith('task_')),
      );
    });
    await use({ ...extWorker, worker });
    completedARun = await worker
      .evaluate(async () => {
        const all = await chrome.storage.local.get(null);
        return Object.entries(all).some(
          ([k, v]) =>
            k.startsWith('run_') && (v as { status?: string } | null)?.status === 'completed',
        );
      })
      .catch(() => true);
    for (const page of extWorker.context.pages()) await page.close().catch(() => undefined);
  },
});

export { expect };

/** Opens a demo-site page and returns it with its Chrome tab id. */
export async function openDemo(
  ext: Extension,
  pathname: string,
): Promise<{ page: Page; tabId: number }> {
  const page = await ext.context.newPage();
  const url = `${ext.env.demo}${pathname}`;
  await page.goto(url);
  const worker = await serviceWorker(ext.context);
  const tabId = await worker.evaluate(async (u) => {
    const tabs = await chrome.tabs.query({});
    return tabs.find((t) => t.url === u)?.id ?? -1;
  }, url);
  expect(tabId).toBeGreaterThan(0);
  return { page, tabId };
}

/** Opens the popup for a tab (as a page: tests cannot click the toolbar icon). */
export async function openPopup(ext: Extension, tabId: number): Promise<Page> {
  const popup = await ext.context.newPage();
  await popup.goto(`chrome-extension://${ext.id}/src/popup/index.html?tab=${tabId}`);
  return popup;
}

/** Types the goal into the popup and presses Start (as a user would). */
export async function typeGoal(popup: Page, goal: string): Promise<void> {
  await popup.getByLabel('What should I do on this page?').fill(goal);
  await popup.getByRole('button', { name: 'Start' }).click();
}

/** Opens the popup for a tab, types the goal and presses Start. */
export async function startGoal(ext: Extension, tabId: number, goal: string): Promise<Page> {
  const popup = await openPopup(ext, tabId);
  await typeGoal(popup, goal);
  return popup;
}

export async function runState(ext: Extension, tabId: number): Promise<RunStateView | null> {
  const worker = await serviceWorker(ext.context);
  return worker.evaluate(
    async (key) => ((await chrome.storage.local.get(key))[key] as RunStateView | undefined) ?? null,
    `run_${tabId}`,
  );
}

/** Polls the run until `done` holds (or throws with the last state). */
export async function waitForRun(
  ext: Extension,
  tabId: number,
  done: (run: RunStateView) => boolean,
  timeoutMs = 60_000,
): Promise<RunStateView> {
  const deadline = Date.now() + timeoutMs;
  let last: RunStateView | null = null;
  while (Date.now() < deadline) {
    last = await runState(ext, tabId).catch(() => last);
    if (last && done(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`run did not reach the expected state: ${JSON.stringify(last, null, 2)}`);
}

export const finished = (run: RunStateView) => run.status !== 'running';
