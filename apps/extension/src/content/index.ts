// The content script: wires @tandem/page into the tab. It only answers our service worker,
// and only the messages of the ContentRequest schema.
import type { PageSnapshot, SnapshotRequest } from '@tandem/contracts';
import {
  capturePageState,
  execute,
  inspectTargets,
  SelectorError,
  snapshot,
  snapshotLinks,
  startObservation,
  type Observation,
} from '@tandem/page';
import { ContentRequest, isFromServiceWorker, type SettleReply } from '../shared/messages';

let observation: Observation | null = null;

/**
 * A snapshot, or why it could not be taken as asked: a selector the model chose may match
 * nothing on this page, which the model should hear about, not a failed task. With
 * `pageLinks`, the page's links outside the selector's element come along.
 */
async function snapshotReply(request: SnapshotRequest): Promise<PageSnapshot> {
  try {
    const text = await snapshot(request);
    return {
      mode: request.mode,
      text,
      ...(request.pageLinks ? { links: snapshotLinks(document, request.selector) } : {}),
    };
  } catch (error) {
    if (error instanceof SelectorError)
      return { mode: request.mode, text: '', error: error.message };
    throw error;
  }
}

async function handle(request: ContentRequest): Promise<unknown> {
  switch (request.type) {
    case 'ping':
      return { ok: true };
    case 'capture':
      return capturePageState({ mode: request.mode });
    case 'snapshot':
      return snapshotReply(request.request);
    case 'execute': {
      // Observation starts before the first action of a step (a chain shares one).
      if (request.observe || !observation) {
        observation?.stop();
        observation = startObservation();
      }
      return execute(request.action, {
        ...(request.allowedSites ? { allowedSites: request.allowedSites } : {}),
        ...(request.typeOnlyOn ? { typeOnlyOn: request.typeOnlyOn } : {}),
      });
    }
    case 'inspect':
      return inspectTargets(request.ids);
    case 'settle': {
      const current = observation;
      observation = null;
      if (!current) {
        // New document (navigation): wait for it to settle; the worker fills in the rest.
        const fresh = startObservation();
        const stability = await fresh.settle();
        fresh.stop();
        const reply: SettleReply = {
          observations: {},
          stable: stability.stable,
          waitedMs: stability.waitedMs,
          url: location.href,
          fresh: true,
        };
        return reply;
      }
      const stability = await current.settle();
      const reply: SettleReply = {
        observations: current.stop(),
        stable: stability.stable,
        waitedMs: stability.waitedMs,
        url: location.href,
        fresh: false,
      };
      return reply;
    }
  }
}

chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
  if (!isFromServiceWorker(sender, chrome.runtime.id)) return false;
  const parsed = ContentRequest.safeParse(message);
  if (!parsed.success) {
    sendResponse({ error: 'invalid message' });
    return false;
  }
  handle(parsed.data).then(sendResponse, (error: unknown) =>
    sendResponse({ error: error instanceof Error ? error.message : String(error) }),
  );
  return true; // async reply
});
