// Side panel: the live view of the active tab, open beside the page while the agent acts (a
// popup closes as soon as the user clicks the page). It follows the user switching tabs in its
// window; tests pin it to one tab with ?tab=<id>. Goals are typed in the popup.
import { chromeStorage, sendToWorker, watchStorage } from '../shared/chrome-glue';
import { createApiClient } from '../shared/api-client';
import { mountLiveView, type LiveViewController } from '../shared/live-view-controller';
import { tabFromQuery } from '../shared/live-view-format';
import { loadSettings } from '../shared/settings';

/** Names the tab the panel shows, so the user knows whose run this is. */
async function showTabTitle(tabId: number): Promise<void> {
  const title = document.getElementById('tab-title');
  if (!title) return;
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  const text = tab?.title || tab?.url || '';
  title.textContent = text;
  title.title = text;
}

async function showTab(view: LiveViewController, tabId: number): Promise<void> {
  await Promise.all([view.show(tabId), showTabTitle(tabId)]);
}

/** Shows the active tab of the panel's window now and whenever the user switches tabs. */
async function followActiveTab(view: LiveViewController): Promise<void> {
  const { id: windowId } = await chrome.windows.getCurrent();
  let shown: number | null = null;
  chrome.tabs.onActivated.addListener((info) => {
    if (info.windowId !== windowId) return;
    shown = info.tabId;
    void showTab(view, info.tabId);
  });
  // The agent navigates: keep the tab's name current.
  chrome.tabs.onUpdated.addListener((tabId, change) => {
    if (tabId === shown && change.title !== undefined) void showTabTitle(tabId);
  });
  const [tab] = await chrome.tabs.query({ active: true, windowId });
  if (tab?.id !== undefined && shown === null) {
    shown = tab.id;
    await showTab(view, tab.id);
  }
}

async function main(): Promise<void> {
  const settings = await loadSettings(chromeStorage);
  const api = settings ? createApiClient(settings) : null;
  const root = document.getElementById('live');
  if (!root) return;
  const view = mountLiveView(
    root,
    { storage: chromeStorage, send: sendToWorker, watch: watchStorage, api },
    {
      empty: 'No task in this tab. Click the Tandem icon and type a goal to start one.',
      showGoal: true,
    },
  );
  const pinned = tabFromQuery(location.search);
  if (pinned !== null) await showTab(view, pinned);
  else await followActiveTab(view);
}

void main();
