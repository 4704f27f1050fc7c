// Service worker: wiring only. The loop lives in task-loop.ts; this file connects it to the
// chrome.* APIs, the popup's messages, and restarts loops that were running when Chrome
// stopped the worker.
import { taskSites, type RoutineRunRequest } from '@tandem/contracts';
import { chromeStorage } from '../shared/chrome-glue';
import { createApiClient } from '../shared/api-client';
import { isFromExtensionPage, WorkerRequest, type WorkerReply } from '../shared/messages';
import { loadRun, RunState, writeRun } from '../shared/run-state';
import { loadSecrets, redactingApi } from '../shared/secrets';
import { loadSettings } from '../shared/settings';
import { adoptRuns } from './adopt-runs';
import { approveRun, rejectRun } from './approval';
import { chromeTabDriver } from './chrome-tab-driver';
import { PageLearning } from './page-learning';
import { isActive } from './run-commands';
import { RunControl, sleep, within, type Timing } from './run-control';
import { chromeSiteGuard } from './site-guard';
import { answerRun, runTaskLoop, startRun, stopRun, type LoopDeps } from './task-loop';

const storage = chromeStorage;

// Chrome stops a worker that made no extension call for 30 s; a Retry-After can be longer, so
// a long wait makes one every 20 s (and an alarm resumes the run should the worker stop anyway).
const timing: Timing = {
  now: () => Date.now(),
  random: Math.random,
  sleep: (ms, signal) =>
    sleep(ms, signal, { sliceMs: 20_000, onSlice: () => chrome.runtime.getPlatformInfo() }),
};

async function api() {
  const settings = await loadSettings(storage);
  if (!settings) throw new Error('Set the server URL and API key on the options page first.');
  // Everything sent to the server passes the redaction of the stored secrets' values.
  return redactingApi(createApiClient(settings), () => loadSecrets(storage));
}

// Pages of the sites the user allowed on the options page or in the popup, sent to the
// tenant's knowledge while a task runs there (two-phase SPA ingestion, page-learning.ts).
const learning = new PageLearning({ storage, tabs: chromeTabDriver, api });

const deps: LoopDeps = {
  tabs: chromeTabDriver,
  storage,
  timing,
  api,
  learning,
  siteGuard: chromeSiteGuard,
};

// One loop per tab in this worker, with the control Stop aborts it through. A stopped loop
// stays listed until its Stop wrote `stopped`, so nothing resumes the run in between.
const loops = new Map<number, { control: RunControl; done: Promise<unknown> }>();

function drive(tabId: number): void {
  if (loops.has(tabId)) return;
  const control = new RunControl();
  const done = runTaskLoop(deps, tabId, control)
    .catch(async (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const current = await loadRun(storage, tabId);
      if (current) await writeRun(storage, current, { status: 'error', error: message });
    })
    .finally(() => {
      if (!control.stopped && loops.get(tabId)?.control === control) loops.delete(tabId);
    });
  loops.set(tabId, { control, done });
}

/** Stop: aborts the tab's loop, writes `stopped`, cancels the server task (stopRun). */
async function stop(tabId: number): Promise<void> {
  const loop = loops.get(tabId);
  try {
    await stopRun(deps, tabId, loop?.control);
    // Its writes are refused and its tab calls checked from now on; this only keeps a resume
    // from starting a second loop while the first one unwinds.
    if (loop) await within(5_000, loop.done);
  } finally {
    if (loops.get(tabId) === loop) loops.delete(tabId);
    await chromeSiteGuard.release(tabId).catch(() => undefined);
  }
}

/**
 * Start: a goal still running (or waiting on the user) in the tab is stopped first, then the
 * new one runs, on the tab's site and the ones the user added.
 */
async function start(
  tabId: number,
  goal: string,
  extraSites: string[] = [],
  routine?: RoutineRunRequest,
): Promise<void> {
  const current = await loadRun(storage, tabId);
  if (loops.has(tabId) || (current && isActive(current))) await stop(tabId);
  const tab = await chrome.tabs.get(tabId);
  await startRun(storage, tabId, goal, Date.now(), taskSites(tab.url ?? '', extraSites), routine);
  await resume(tabId);
}

async function resume(tabId: number): Promise<void> {
  drive(tabId);
  await chrome.alarms.create(RESUME_ALARM, { periodInMinutes: 0.5 });
}

function handle(request: WorkerRequest): Promise<unknown> {
  switch (request.type) {
    case 'task:start':
      return start(request.tabId, request.goal, request.sites, request.routine);
    case 'task:stop':
      return stop(request.tabId);
    case 'task:answer':
      return answerRun(storage, request.tabId, request.answer).then(() => resume(request.tabId));
    case 'task:approve':
      return approveRun(storage, request.tabId, request.actions).then(() => resume(request.tabId));
    case 'task:reject':
      return rejectRun(storage, request.tabId, request.note).then(() => resume(request.tabId));
  }
}

chrome.runtime.onMessage.addListener(
  (message: unknown, sender, sendResponse: (reply: WorkerReply) => void) => {
    if (!isFromExtensionPage(sender, chrome.runtime.id)) return false;
    const parsed = WorkerRequest.safeParse(message);
    if (!parsed.success) {
      sendResponse({ ok: false, error: 'invalid message' });
      return false;
    }
    handle(parsed.data).then(
      () => sendResponse({ ok: true }),
      (error: unknown) =>
        sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
    return true;
  },
);

// A worker that Chrome stopped mid-task comes back here: resume every run still marked running.
const RESUME_ALARM = 'tandem-resume';

async function resumeRuns(): Promise<void> {
  const all = await chrome.storage.local.get(null);
  let active = 0;
  for (const [key, value] of Object.entries(all)) {
    if (!key.startsWith('run_')) continue;
    const run = RunState.safeParse(value);
    if (run.success && run.data.status === 'running') {
      active += 1;
      drive(run.data.tabId);
    }
  }
  // Keep an alarm only while something runs (30 s is Chrome's minimum period).
  if (active > 0) await chrome.alarms.create(RESUME_ALARM, { periodInMinutes: 0.5 });
  else await chrome.alarms.clear(RESUME_ALARM);
}

// Wraps each page's own fetch/XHR (MAIN world, document_start) so the stability waiter and
// clientObservations see the page's network activity; see vite.config.ts for the file.
async function registerNetworkTracker(): Promise<void> {
  const id = 'tandem-network';
  const existing = await chrome.scripting.getRegisteredContentScripts({ ids: [id] });
  if (existing.length > 0) return;
  await chrome.scripting.registerContentScripts([
    {
      id,
      matches: ['http://*/*', 'https://*/*'],
      js: ['tandem-network.js'],
      runAt: 'document_start',
      world: 'MAIN',
      persistAcrossSessions: true,
    },
  ]);
}

/** Runs waiting on the user in tabs a browser restart closed move to the tab of their page. */
async function adoptWaitingRuns(): Promise<void> {
  const tabs = await chrome.tabs.query({});
  const open = tabs.flatMap((t) => (t.id !== undefined && t.url ? [{ id: t.id, url: t.url }] : []));
  await adoptRuns(storage, open);
}

// Chrome wakes a stopped worker only for events it listens to. A page load in any tab, or the
// periodic alarm while a task runs, is enough to resume the loop from storage.
chrome.tabs.onUpdated.addListener((_tabId, info) => {
  if (info.status !== 'complete') return;
  void adoptWaitingRuns().catch((error: unknown) => console.error('adopting runs failed', error));
  void resumeRuns();
});
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RESUME_ALARM) void resumeRuns();
});

chrome.tabs.onRemoved.addListener((tabId) => {
  learning.forget(tabId);
  void stop(tabId);
});

void registerNetworkTracker().catch((error: unknown) =>
  console.error('network tracker registration failed', error),
);
void resumeRuns();
