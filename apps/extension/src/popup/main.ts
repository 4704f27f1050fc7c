// Popup: type a goal and press Start; the live view below shows the tab's run as it goes (the
// same view as the side panel, which stays open while the user clicks the page). It renders
// the run state from storage, so reopening the popup mid-task shows everything so far.
import { siteOf, type RoutineRunRequest } from '@tandem/contracts';
import { chromeStorage, sendToWorker, watchStorage } from '../shared/chrome-glue';
import { createApiClient } from '../shared/api-client';
import { mountLiveView } from '../shared/live-view-controller';
import { tabFromQuery } from '../shared/live-view-format';
import { isActiveStatus, type RunState } from '../shared/run-state';
import { loadSettings } from '../shared/settings';
import { parseSites } from '../shared/site-input';
import { mountLearnToggle } from './learn-toggle';
import { mountRunAgain, type RunAgain } from './run-again';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The tab this popup acts on: tests open the popup as a page with ?tab=<id>. */
async function activeTabId(): Promise<number | null> {
  const fromQuery = tabFromQuery(location.search);
  if (fromQuery !== null) return fromQuery;
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab?.id ?? null;
}

let runAgain: RunAgain | null = null;
let lastRun: RunState | null = null;

function showRun(run: RunState | null): void {
  lastRun = run;
  // A question or an approval card waiting for the user counts as active: a goal typed and sent
  // with Start would silently drop it and start over. Stop gives it up.
  const active = isActiveStatus(run?.status);
  $<HTMLButtonElement>('start').disabled = active;
  runAgain?.setBusy(active);
  const goal = $<HTMLTextAreaElement>('goal');
  if (run && goal.value === '') goal.value = run.goal;
}

/** Says which site the task stays on, under the sites field. */
function showSitesHint(url: string | undefined): void {
  const site = siteOf(url);
  $<HTMLElement>('sites-hint').textContent = site
    ? `The task stays on ${site} and the sites you add here: anywhere else is blocked.`
    : 'The task stays on the site it starts on and the sites you add here.';
}

/**
 * Start's one path, for a typed goal and for a routine's filled one alike (which adds the
 * routine); resolves to the error shown, if any.
 */
async function startTask(
  tabId: number,
  goal: string,
  status: (text: string) => void,
  routine?: RoutineRunRequest,
): Promise<string | undefined> {
  // "Also allow these sites": a task stays on its start site otherwise.
  const typed = parseSites($<HTMLInputElement>('sites').value);
  if ('error' in typed) {
    status(typed.error);
    return typed.error;
  }
  status('');
  const sites = typed.sites.length > 0 ? { sites: typed.sites } : {};
  const reply = await sendToWorker({
    type: 'task:start',
    tabId,
    goal,
    ...sites,
    ...(routine ? { routine } : {}),
  });
  if (reply.ok) return undefined;
  const error = reply.error ?? 'Could not start.';
  status(error);
  return error;
}

function wireControls(tabId: number, status: (text: string) => void): void {
  $<HTMLFormElement>('goal-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const goal = $<HTMLTextAreaElement>('goal').value.trim();
    if (!goal) return;
    void startTask(tabId, goal, status);
  });
  // sidePanel.open needs the click's user gesture: it is called at once, before any await.
  $<HTMLButtonElement>('open-panel').addEventListener('click', () => {
    chrome.sidePanel.open({ tabId }).then(
      () => {
        // The real popup makes room for the panel; a test's popup page stays open.
        if (tabFromQuery(location.search) === null) window.close();
      },
      (error: unknown) => status(error instanceof Error ? error.message : String(error)),
    );
  });
  $<HTMLAnchorElement>('options').addEventListener('click', (event) => {
    event.preventDefault();
    void chrome.runtime.openOptionsPage();
  });
}

async function main(): Promise<void> {
  const tabId = await activeTabId();
  const root = $<HTMLElement>('live');
  const settings = await loadSettings(chromeStorage);
  const api = settings ? createApiClient(settings) : null;
  const view = mountLiveView(
    root,
    { storage: chromeStorage, send: sendToWorker, watch: watchStorage, api },
    { empty: 'Type a goal and press Start.', onRun: showRun },
  );
  const status = (text: string) => {
    const error = $<HTMLElement>('popup-error');
    error.textContent = text;
    error.hidden = text === '';
  };
  if (tabId === null) {
    $<HTMLButtonElement>('start').disabled = true;
    status('No active tab.');
    return;
  }
  wireControls(tabId, status);
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  showSitesHint(tab?.url);
  const site = siteOf(tab?.url);
  // Not awaited: the live view must not wait on the server. Without settings or an http(s)
  // page there is nothing to ask for, and the section stays hidden.
  if (api && site)
    void mountRunAgain($<HTMLElement>('run-again'), {
      offers: () => api.routineOffers(site),
      start: (goal, routine) => {
        // The goal box shows what runs, as if it had been typed.
        $<HTMLTextAreaElement>('goal').value = goal;
        return startTask(tabId, goal, status, routine);
      },
      log: (message, error) => console.warn(`[tandem] ${message}`, error),
    }).then((mounted) => {
      runAgain = mounted;
      mounted.setBusy(isActiveStatus(lastRun?.status));
    });
  await mountLearnToggle(document, chromeStorage, tab?.url, watchStorage);
  await view.show(tabId);
}

void main();
