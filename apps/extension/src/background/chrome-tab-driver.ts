// TabDriver over the chrome.* APIs: messages to the tab's content script (re-injected when the
// tab predates the extension), load waiting across navigations, and screenshots on request.
import { PageSnapshot } from '@tandem/contracts';
import {
  ExecuteReply,
  SettleReply,
  TargetFactsReply,
  type ContentRequest,
} from '../shared/messages';
import { screenshotTab } from './screenshot';
import type { CapturedPage, TabDriver } from './tab-driver';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForComplete(tabId: number, timeoutMs = 15_000): Promise<chrome.tabs.Tab> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const tab = await chrome.tabs.get(tabId);
    if (tab.status === 'complete' || Date.now() > deadline) return tab;
    await sleep(100);
  }
}

function contentScriptFile(): string | undefined {
  // The bundler names the file; the manifest knows it.
  const scripts = chrome.runtime.getManifest().content_scripts as
    { js?: string[]; world?: string }[] | undefined;
  return scripts?.find((c) => c.world !== 'MAIN')?.js?.[0];
}

/**
 * The page went away while it answered: it navigated, or went into the back/forward cache.
 * Chrome words it "the message channel closed before a response was received" (older: "the
 * message port closed").
 */
const PAGE_WENT_AWAY = /message (?:channel|port) closed|back\/forward cache/i;

async function send(tabId: number, message: ContentRequest): Promise<unknown> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await chrome.tabs.sendMessage(tabId, message, { frameId: 0 });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      // Reading the page again is safe; executing an action again is not (execute handles it).
      if (PAGE_WENT_AWAY.test(text) && message.type !== 'execute') {
        await waitForComplete(tabId);
        await sleep(150);
        continue;
      }
      if (!/Receiving end does not exist|Could not establish connection/i.test(text)) throw error;
      // A page loading, or a tab opened before the extension: wait, then inject the script.
      await waitForComplete(tabId);
      const file = contentScriptFile();
      if (file && attempt === 1)
        await chrome.scripting
          .executeScript({ target: { tabId }, files: [file] })
          .catch(() => undefined);
      await sleep(150);
    }
  }
  throw new Error('The page does not answer (is it a chrome:// page or the Web Store?).');
}

export const chromeTabDriver: TabDriver = {
  async capture(tabId, mode) {
    await waitForComplete(tabId);
    const page = (await send(tabId, { type: 'capture', mode })) as CapturedPage | { error: string };
    if ('error' in page) throw new Error(`Could not read the page: ${page.error}`);
    return page;
  },
  async snapshot(tabId, request) {
    await waitForComplete(tabId);
    const reply = (await send(tabId, { type: 'snapshot', request })) as unknown;
    if (reply && typeof reply === 'object' && 'error' in reply)
      throw new Error(`Could not read the page: ${String(reply.error)}`);
    // The answer goes to the server as is: checked here so a bad one fails on this side.
    return PageSnapshot.parse(reply);
  },
  async execute(tabId, action, observe, limits = {}) {
    const message: ContentRequest = {
      type: 'execute',
      action,
      observe,
      ...(limits.allowedSites ? { allowedSites: [...limits.allowedSites] } : {}),
      ...(limits.typeOnlyOn ? { typeOnlyOn: [...limits.typeOnlyOn] } : {}),
    };
    try {
      return ExecuteReply.parse(await send(tabId, message));
    } catch (error) {
      // A click that navigates tears the page (and its message channel) down mid-reply.
      const text = error instanceof Error ? error.message : String(error);
      if (PAGE_WENT_AWAY.test(text) || /Receiving end/i.test(text))
        return { ok: true, action, detail: 'the page navigated' };
      throw error;
    }
  },
  async settle(tabId, beforeUrl) {
    await waitForComplete(tabId);
    const reply = SettleReply.parse(await send(tabId, { type: 'settle' }));
    const urlChanged = reply.url !== beforeUrl;
    return {
      ...reply,
      observations: {
        ...reply.observations,
        didUrlChange: urlChanged || reply.observations.didUrlChange === true,
        // A new document is a page load: network and DOM necessarily changed.
        ...(reply.fresh ? { didNetworkOccur: true, didDomMutate: true } : {}),
      },
    };
  },
  screenshot: screenshotTab,
  async inspect(tabId, ids) {
    await waitForComplete(tabId);
    return TargetFactsReply.parse(await send(tabId, { type: 'inspect', ids }));
  },
  async currentUrl(tabId) {
    // The committed URL: a blocked navigation commits its error page under the URL it blocked.
    return (await chrome.tabs.get(tabId)).url;
  },
  async goBack(tabId) {
    await chrome.tabs.goBack(tabId);
    await sleep(100);
    await waitForComplete(tabId);
  },
  async goTo(tabId, url) {
    await chrome.tabs.update(tabId, { url });
    await sleep(100);
    await waitForComplete(tabId);
  },
};
