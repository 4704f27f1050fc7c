// Service worker: wiring only. The loop lives in task-loop.ts; this file connects it to the
// chrome.* APIs, the popup's messages, and restarts loops that were running when Chrome
// stopped the worker.
import { createApiClient } from '../shared/api-client';
import { isFromExtensionPage, WorkerRequest, type WorkerReply } from '../shared/messages';
import { loadRun, RunState, writeRun } from '../shared/run-state';
import { loadSettings, type KeyValueStore } from '../shared/settings';
import { chromeTabDriver } from './chrome-tab-driver';
import { runTaskLoop, startRun, stopRun, type LoopDeps } from './task-loop';

const storage: KeyValueStore = {
  get: (key) => chrome.storage.local.get(key),
  set: (items) => chrome.storage.local.set(items),
  remove: (key) => chrome.storage.local.remove(key),
};

const deps: LoopDeps = {
  tabs: chromeTabDriver,
  storage,
  api: async () => {
    const settings = await loadSettings(storage);
    if (!settings) throw new Error('Set the server URL and API key on the options page first.');
    return createApiClient(settings);
  },
};

// One loop per tab in this worker; a second start for the same tab waits for the first.
const running = new Map<number, Promise<unknown>>();

function drive(tabId: number): void {
  if (running.has(tabId)) return;
  const loop = runTaskLoop(deps, tabId)
    .catch(async (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const current = await loadRun(storage, tabId);
      if (current) await writeRun(storage, current, { status: 'error', error: message });
    })
    .finally(() => running.delete(tabId));
  running.set(tabId, loop);
}

chrome.runtime.onMessage.addListener(
  (message: unknown, sender, sendResponse: (reply: WorkerReply) => void) => {
    if (!isFromExtensionPage(sender, chrome.runtime.id)) return false;
    const parsed = WorkerRequest.safeParse(message);
    if (!parsed.success) {
      sendResponse({ ok: false, error: 'invalid message' });
      return false;
    }
    const request = parsed.data;
    const work =
      request.type === 'task:start'
        ? startRun(storage, request.tabId, request.goal).then(() => {
            drive(request.tabId);
            return chrome.alarms.create(RESUME_ALARM, { periodInMinutes: 0.5 });
          })
        : stopRun(storage, request.tabId);
    work.then(
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

// Chrome wakes a stopped worker only for events it listens to. A page load in any tab, or the
// periodic alarm while a task runs, is enough to resume the loop from storage.
chrome.tabs.onUpdated.addListener((_tabId, info) => {
  if (info.status === 'complete') void resumeRuns();
});
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RESUME_ALARM) void resumeRuns();
});

chrome.tabs.onRemoved.addListener((tabId) => {
  void stopRun(storage, tabId);
});

void registerNetworkTracker().catch((error: unknown) =>
  console.error('network tracker registration failed', error),
);
void resumeRuns();
