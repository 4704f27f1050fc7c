// recentEvents: a short mutation stream between captures ("added: dialog 'Patient saved'"),
// so the server can tell a page that changed and changed back (ghost state) from one that
// never reacted. The observer starts on the first capture and lives with the document.
import { worldGlobal } from '../dom/global-state';
import { cap, collapse } from '../dom/text';
import { roleCodeOf } from './roles';
import type { RecentMessage } from './sentinel';
import type { MessageKind } from './sentinel-classes';
import { messageKindOfClass, messageKindOfText } from './sentinel-classes';
import { subtreeText } from './names';

/** Events kept between captures; older ones are dropped first. */
export const MAX_RECENT_EVENTS = 10;
/** Records analysed per observer callback; the rest are only counted (busy pages). */
const MAX_RECORDS_PER_BATCH = 300;
const MAX_PENDING_MESSAGES = 20;

const WATCHED_ATTRIBUTES = ['aria-expanded', 'aria-invalid', 'open', 'disabled', 'aria-busy'];

const NOTABLE_ROLES: Record<string, string> = {
  dialog: 'dialog',
  alertdialog: 'dialog',
  alert: 'alert',
  status: 'status',
  log: 'status',
  menu: 'menu',
  listbox: 'listbox',
  tooltip: 'tooltip',
  grid: 'table',
  tabpanel: 'tabpanel',
};
const NOTABLE_TAGS: Record<string, string> = { DIALOG: 'dialog', FORM: 'form', TABLE: 'table' };
const TOAST_CLASS = /\b(?:toast|snackbar|notification|flash|modal)\b/i;
const NOTABLE_SELECTOR =
  'dialog,form,table,[role=dialog],[role=alertdialog],[role=alert],[role=status],[role=menu],[role=listbox],[role=tooltip],[aria-live]';

interface Recorder {
  observer: MutationObserver;
  events: string[];
  addedElements: number;
  removedElements: number;
  messages: RecentMessage[];
  lastUrl: string;
}

function kindOf(el: Element): string | undefined {
  const role = el.getAttribute('role');
  if (role && NOTABLE_ROLES[role]) return NOTABLE_ROLES[role];
  const tagKind = NOTABLE_TAGS[el.tagName];
  if (tagKind) return tagKind;
  const live = el.getAttribute('aria-live');
  if (live && live !== 'off') return 'status';
  const classes = el.getAttribute('class');
  if (classes) {
    const message = messageKindOfClass(classes);
    if (message) return message;
    if (TOAST_CLASS.test(classes)) return 'toast';
  }
  return undefined;
}

function labelOf(el: Element, max: number): string {
  const label = el.getAttribute('aria-label');
  if (label) return cap(label, max);
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    const target = (el.getRootNode() as Document | ShadowRoot).getElementById(
      labelledBy.split(/\s+/)[0] ?? '',
    );
    if (target) return cap(subtreeText(target, max * 2), max);
  }
  return cap(subtreeText(el, max * 3), max);
}

function describe(el: Element, kind: string): string {
  const text = labelOf(el, 60);
  return text ? `${kind} '${text}'` : kind;
}

function push(recorder: Recorder, event: string): void {
  if (recorder.events[recorder.events.length - 1] === event) return;
  recorder.events.push(event);
  if (recorder.events.length > MAX_RECENT_EVENTS * 2) recorder.events.splice(0, MAX_RECENT_EVENTS);
}

function noteMessage(recorder: Recorder, el: Element, kind: MessageKind): void {
  if (recorder.messages.some((m) => m.el === el)) return;
  recorder.messages.push({ el, kind });
  if (recorder.messages.length > MAX_PENDING_MESSAGES) recorder.messages.shift();
}

/** Short text that reads like a notification ("Patient saved") becomes a Sentinel message. */
function checkMessageText(recorder: Recorder, el: Element): void {
  const text = collapse(subtreeText(el, 300));
  if (text.length < 3 || text.length > 200) return;
  const kind = messageKindOfText(text);
  if (kind) noteMessage(recorder, el, kind);
}

function onAdded(recorder: Recorder, el: Element): void {
  const own = kindOf(el);
  const notable: [Element, string][] = own ? [[el, own]] : [];
  if (!own && el.childElementCount > 0) {
    for (const inner of Array.from(el.querySelectorAll(NOTABLE_SELECTOR)).slice(0, 3)) {
      const kind = kindOf(inner);
      if (kind) notable.push([inner, kind]);
    }
  }
  for (const [target, kind] of notable) {
    push(recorder, `added: ${describe(target, kind)}`);
    if (kind === 'error' || kind === 'success') noteMessage(recorder, target, kind);
    else checkMessageText(recorder, target);
  }
  if (notable.length === 0) {
    recorder.addedElements++;
    if (el.childElementCount <= 2) checkMessageText(recorder, el);
  }
}

function onRemoved(recorder: Recorder, el: Element): void {
  const kind = kindOf(el);
  if (kind) push(recorder, `removed: ${describe(el, kind)}`);
  else recorder.removedElements++;
}

function onText(recorder: Recorder, parent: Element | null): void {
  if (!parent) return;
  const kind = kindOf(parent);
  if (kind) push(recorder, `text: ${describe(parent, kind)}`);
  checkMessageText(recorder, parent);
}

function onAttribute(recorder: Recorder, el: Element, name: string): void {
  const role = roleCodeOf(el, el.tagName) ?? kindOf(el) ?? el.tagName.toLowerCase();
  const label = labelOf(el, 40);
  const who = label ? `${role} '${label}'` : role;
  const value = el.getAttribute(name);
  switch (name) {
    case 'aria-expanded':
      push(recorder, `${value === 'true' ? 'expanded' : 'collapsed'}: ${who}`);
      break;
    case 'aria-invalid':
      if (value !== null && value !== 'false') push(recorder, `invalid: ${who}`);
      break;
    case 'open':
      push(recorder, `${value === null ? 'closed' : 'opened'}: ${who}`);
      break;
    case 'disabled':
      push(recorder, `${value === null ? 'enabled' : 'disabled'}: ${who}`);
      break;
    case 'aria-busy':
      if (value === 'true') push(recorder, `busy: ${who}`);
      break;
  }
}

function handle(recorder: Recorder, records: MutationRecord[]): void {
  let analysed = 0;
  for (const record of records) {
    if (analysed++ >= MAX_RECORDS_PER_BATCH) {
      recorder.addedElements += record.addedNodes.length;
      continue;
    }
    if (record.type === 'childList') {
      for (const node of Array.from(record.addedNodes)) {
        if (node.nodeType === 1) onAdded(recorder, node as Element);
        else if (node.nodeType === 3) onText(recorder, record.target as Element);
      }
      for (const node of Array.from(record.removedNodes)) {
        if (node.nodeType === 1) onRemoved(recorder, node as Element);
      }
    } else if (record.type === 'attributes' && record.attributeName) {
      onAttribute(recorder, record.target as Element, record.attributeName);
    } else if (record.type === 'characterData') {
      onText(recorder, record.target.parentElement);
    }
  }
}

function recorderFor(doc: Document): Recorder | undefined {
  const win = doc.defaultView;
  if (!win) return undefined;
  return worldGlobal(win, 'recent-events', () => {
    const recorder: Recorder = {
      observer: new win.MutationObserver((records) => handle(recorder, records)),
      events: [],
      addedElements: 0,
      removedElements: 0,
      messages: [],
      lastUrl: win.location.href,
    };
    recorder.observer.observe(doc, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: WATCHED_ATTRIBUTES,
    });
    return recorder;
  });
}

export interface RecentActivity {
  events: string[];
  /** Messages that appeared since the last capture and may still be on screen. */
  messages: RecentMessage[];
}

/**
 * Drains what happened since the previous call (starting the observer on the first call,
 * which therefore reports nothing). Pending records are taken synchronously so a capture
 * right after a change sees it.
 */
export function takeRecentActivity(doc: Document): RecentActivity {
  const recorder = recorderFor(doc);
  if (!recorder) return { events: [], messages: [] };
  handle(recorder, recorder.observer.takeRecords());

  const summary: string[] = [];
  const url = doc.defaultView?.location.href ?? '';
  if (url !== recorder.lastUrl) {
    summary.push(`url: ${url}`);
    recorder.lastUrl = url;
  }
  if (recorder.addedElements > 0) summary.push(`added: ${recorder.addedElements} elements`);
  if (recorder.removedElements > 0) summary.push(`removed: ${recorder.removedElements} elements`);
  const events = [...recorder.events.slice(-(MAX_RECENT_EVENTS - summary.length)), ...summary];
  const messages = recorder.messages.filter((m) => m.el.isConnected);

  recorder.events = [];
  recorder.addedElements = 0;
  recorder.removedElements = 0;
  recorder.messages = [];
  return { events, messages };
}
