// DOM and URL activity during a wait or an observation. Our own data-llm-id writes are not
// activity: a capture must never make the page look unsettled.
import type { Realm } from '../dom/realm';
import { LLM_ID_ATTRIBUTE } from '../dom/elements';

export interface DomActivity {
  /** performance.now() of the last mutation or URL change. */
  lastChange: number;
  mutated: boolean;
  urlChanged: boolean;
  /** Applies pending mutation records and re-reads location (pushState fires no event). */
  sync(): void;
  disconnect(): void;
}

const isOwnWrite = (record: MutationRecord): boolean =>
  record.type === 'attributes' && record.attributeName === LLM_ID_ATTRIBUTE;

export function watchDom(win: Realm = window): DomActivity {
  const doc = win.document;
  let url = win.location.href;
  const activity: DomActivity = {
    lastChange: win.performance.now(),
    mutated: false,
    urlChanged: false,
    sync() {
      onRecords(observer.takeRecords());
      const current = win.location.href;
      if (current !== url) {
        url = current;
        activity.urlChanged = true;
        activity.lastChange = win.performance.now();
      }
    },
    disconnect() {
      observer.disconnect();
      win.removeEventListener('popstate', onNavigation);
      win.removeEventListener('hashchange', onNavigation);
    },
  };
  const onRecords = (records: MutationRecord[]) => {
    if (records.length === 0 || records.every(isOwnWrite)) return;
    activity.mutated = true;
    activity.lastChange = win.performance.now();
  };
  const observer = new win.MutationObserver(onRecords);
  observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
  const onNavigation = () => activity.sync();
  win.addEventListener('popstate', onNavigation);
  win.addEventListener('hashchange', onNavigation);
  return activity;
}
