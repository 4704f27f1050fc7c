// Helpers for tests of whole flows (Stop, questions, retries): every write of a tab's run as
// the service worker made it, what a demo page did and when, the server's record of a task,
// the side panel, and screenshots for docs/images/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { AdminTaskDetail } from '@tandem/contracts';
import { expect, type Extension, type RunStateView } from './fixtures';

export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../docs/images');

/** A run write as recorded in the service worker; `wait`, `inFlight`, times included. */
export interface RunWrite extends RunStateView {
  wait?: { reason: string; until: number; attempt: number };
  inFlight?: string[];
  updatedAt: number;
}

interface Recorder {
  writes: { key: string; run: RunWrite | null }[];
  stops: number;
}

const worker = (ext: Extension) =>
  ext.context.serviceWorkers()[0] ?? ext.context.waitForEvent('serviceworker');

/**
 * From now on, keeps every stored version of every run and counts the Stop messages the
 * worker received, so a test never misses a short-lived state (a wait, an action in flight)
 * by polling between two writes. Listeners added after the worker's own run after them: when
 * the Stop counter moves, the worker has already aborted the tab's loop.
 */
export async function recordRuns(ext: Extension): Promise<void> {
  await (
    await worker(ext)
  ).evaluate(() => {
    const scope = globalThis as unknown as { e2eRecorder?: Recorder };
    if (scope.e2eRecorder) {
      scope.e2eRecorder.writes.length = 0;
      scope.e2eRecorder.stops = 0;
      return;
    }
    const recorder: Recorder = { writes: [], stops: 0 };
    scope.e2eRecorder = recorder;
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area !== 'local') return;
      for (const [key, change] of Object.entries(changes))
        if (key.startsWith('run_'))
          recorder.writes.push({ key, run: (change.newValue as RunWrite | undefined) ?? null });
    });
    chrome.runtime.onMessage.addListener((message: unknown) => {
      if ((message as { type?: string } | null)?.type === 'task:stop') recorder.stops += 1;
    });
  });
}

/** Every version of the tab's run stored since recordRuns, oldest first. */
export async function runWrites(ext: Extension, tabId: number): Promise<RunWrite[]> {
  return (await worker(ext)).evaluate((key) => {
    const recorder = (globalThis as unknown as { e2eRecorder?: Recorder }).e2eRecorder;
    return (recorder?.writes ?? []).flatMap((w) => (w.key === key && w.run ? [w.run] : []));
  }, `run_${tabId}`);
}

/** The first recorded write of the tab's run for which `match` holds. */
export async function waitForWrite(
  ext: Extension,
  tabId: number,
  match: (run: RunWrite) => boolean,
  timeoutMs = 60_000,
): Promise<RunWrite> {
  let found: RunWrite | undefined;
  await expect
    .poll(
      async () => {
        found = (await runWrites(ext, tabId)).find(match);
        return found !== undefined;
      },
      { timeout: timeoutMs, intervals: [50] },
    )
    .toBe(true);
  return found as RunWrite;
}

/** Resolves once the worker has received a Stop (and so has aborted the tab's loop). */
export async function stopReceived(ext: Extension): Promise<void> {
  await expect
    .poll(
      async () =>
        (await worker(ext)).evaluate(
          () => (globalThis as unknown as { e2eRecorder?: Recorder }).e2eRecorder?.stops ?? 0,
        ),
      { intervals: [20] },
    )
    .toBeGreaterThan(0);
}

/**
 * Records every change of the demo page from now on (DOM mutations, including the ids a page
 * read writes, and field edits) with its time, to prove nothing happened after a moment.
 */
export async function watchPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    const changes: { at: number; what: string }[] = [];
    (globalThis as unknown as { e2eChanges: typeof changes }).e2eChanges = changes;
    const describe = (node: Node) =>
      node instanceof Element ? `${node.tagName.toLowerCase()}#${node.id}` : node.nodeName;
    new MutationObserver((records) => {
      for (const r of records)
        changes.push({
          at: Date.now(),
          what: `${r.type} ${describe(r.target)}${r.attributeName ? ` @${r.attributeName}` : ''}`,
        });
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    // A scroll counts when the position moved. Chrome fires the scroll event at its next
    // rendering update, which a tab in the background may delay past Stop, so the event of a
    // scroll made before Stop can arrive after it, with the position it already had.
    const positions = new Map<EventTarget, string>();
    const positionOf = (target: EventTarget | null) =>
      target instanceof Element
        ? `${target.scrollLeft},${target.scrollTop}`
        : `${globalThis.scrollX},${globalThis.scrollY}`;
    positions.set(document, positionOf(document));
    for (const el of document.querySelectorAll('*')) positions.set(el, positionOf(el));
    document.addEventListener(
      'scroll',
      (event) => {
        const target = event.target ?? document;
        const now = positionOf(target);
        if (positions.get(target) === now) return;
        positions.set(target, now);
        changes.push({
          at: Date.now(),
          what: `scroll ${target instanceof Element ? describe(target) : 'document'} to ${now}`,
        });
      },
      true,
    );
    for (const type of ['input', 'change', 'submit'])
      document.addEventListener(
        type,
        (event) =>
          changes.push({
            at: Date.now(),
            what: `${type} ${event.target instanceof Element ? describe(event.target) : 'document'}`,
          }),
        true,
      );
  });
}

/** What changed on the page at or after `since` (epoch ms), as recorded by watchPage. */
export async function pageChangesSince(page: Page, since: number): Promise<string[]> {
  return page.evaluate(
    (t) =>
      (globalThis as unknown as { e2eChanges: { at: number; what: string }[] }).e2eChanges
        .filter((c) => c.at >= t)
        .map((c) => `${new Date(c.at).toISOString()} ${c.what}`),
    since,
  );
}

export interface ServerCoordinates {
  url: string;
  apiKey: string;
}

/** The server's record of a task (the admin API, with the suite's admin key). */
export async function serverTask(
  server: ServerCoordinates,
  taskId: string,
): Promise<AdminTaskDetail> {
  const res = await fetch(`${server.url}/api/admin/tasks/${taskId}`, {
    headers: { authorization: `Bearer ${server.apiKey}` },
  });
  expect(res.status, `GET /api/admin/tasks/${taskId}`).toBe(200);
  return AdminTaskDetail.parse(await res.json());
}

/** The server as the extension's settings name it (tests with their own server switch it). */
export async function useServer(ext: Extension, server: ServerCoordinates): Promise<void> {
  await (
    await worker(ext)
  ).evaluate((settings) => chrome.storage.local.set({ settings }), {
    serverUrl: server.url,
    apiKey: server.apiKey,
  });
}

export interface Patient {
  id: string;
  firstName: string;
  lastName: string;
  dateOfBirth?: string;
}

export async function demoPatients(ext: Extension): Promise<Patient[]> {
  const res = await fetch(`${ext.env.demo}/api/patients`);
  return ((await res.json()) as { patients: Patient[] }).patients;
}

/** What the demo request form received, oldest first. */
export async function demoSubmissions(ext: Extension): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${ext.env.demo}/api/form/submissions`);
  return ((await res.json()) as { submissions: Record<string, unknown>[] }).submissions;
}

export const isJasPatel = (p: Patient) => p.firstName === 'Jas' && p.lastName === 'Patel';

/** The side panel's page for a tab (as Chrome shows it beside the page, pinned to the tab). */
export async function openPanel(ext: Extension, tabId: number): Promise<Page> {
  const panel = await ext.context.newPage();
  await panel.setViewportSize({ width: 400, height: 800 });
  await panel.goto(`chrome-extension://${ext.id}/src/sidepanel/index.html?tab=${tabId}`);
  return panel;
}

export type Surface = 'popup' | 'panel';
const SIZE: Record<Surface, { width: number; height: number }> = {
  popup: { width: 380, height: 600 },
  panel: { width: 400, height: 800 },
};

/**
 * Saves `docs/images/flow-<state>-<surface>.png`: the popup or panel at the size Chrome shows
 * it, whole (a long run scrolls).
 */
export async function shoot(view: Page, state: string, surface: Surface): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await view.setViewportSize(SIZE[surface]);
  await view.screenshot({
    path: path.join(SCREENSHOTS, `flow-${state}-${surface}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

/** Signs in on the admin sign-in form `page` shows, with `key`. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('Admin API key').fill(key);
  await page.getByRole('button', { name: /Sign in/ }).click();
}
