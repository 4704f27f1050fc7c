// The chrome.* calls every extension page and the worker share, in one place: storage as the
// KeyValueStore the testable modules take, messages to the worker, and watching a key.
import type { WorkerReply, WorkerRequest } from './messages';
import type { KeyValueStore } from './settings';

/** chrome.storage.local (never sync: run state and keys stay on this machine). */
export const chromeStorage: KeyValueStore = {
  get: (key) => chrome.storage.local.get(key),
  set: (items) => chrome.storage.local.set(items),
  remove: (key) => chrome.storage.local.remove(key),
};

/** A message to the service worker, which checks it (and its sender) on receipt. */
export async function sendToWorker(request: WorkerRequest): Promise<WorkerReply> {
  return (await chrome.runtime.sendMessage(request)) as WorkerReply;
}

/** Calls `onChange` whenever `key` changes in chrome.storage.local; returns the unwatch. */
export function watchStorage(key: string, onChange: () => void): () => void {
  const listener = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
    if (area === 'local' && key in changes) onChange();
  };
  chrome.storage.onChanged.addListener(listener);
  return () => chrome.storage.onChanged.removeListener(listener);
}
