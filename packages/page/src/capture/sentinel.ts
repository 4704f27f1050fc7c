// The Sentinel: errors and success messages the page itself shows, so verification can often
// finish without an LLM call. Sources: role=alert/status and live regions, error/success
// classes, invalid fields, and short messages that appeared since the last capture.
import { cap, collapse } from '../dom/text';
import { isRendered } from './geometry-read';
import { subtreeText } from './names';
import type { MessageKind } from './sentinel-classes';
import { messageKindOfText } from './sentinel-classes';
import type { SentinelHit } from './walk';

export interface SentinelReport {
  hasErrors: boolean;
  hasSuccess: boolean;
  /** true: success shown and no error; false: an error shown; absent: the page said nothing. */
  verification_passed?: boolean;
  errors_detected: string[];
  success_messages: string[];
}

const MAX_MESSAGES = 10;
const MESSAGE_LENGTH = 200;
/** Longer "messages" are page sections that happen to carry a class, not notifications. */
const MAX_MESSAGE_SOURCE = 600;

export interface RecentMessage {
  el: Element;
  kind: MessageKind;
}

function textOf(el: Element): string {
  return collapse(subtreeText(el, MAX_MESSAGE_SOURCE + 1));
}

function isShown(el: Element): boolean {
  if (!el.isConnected) return false;
  const box = el.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && isRendered(el);
}

export interface SentinelField {
  el: Element;
  role: string;
  name: string;
  state: string | undefined;
}

export function runSentinel(
  hits: SentinelHit[],
  fields: SentinelField[],
  recent: RecentMessage[],
): SentinelReport {
  const errors = new Set<string>();
  const successes = new Set<string>();
  const add = (kind: MessageKind, text: string) => {
    const target = kind === 'error' ? errors : successes;
    if (target.size < MAX_MESSAGES) target.add(cap(text, MESSAGE_LENGTH));
  };

  const seen = new Set<Element>();
  const consider = (el: Element, kind: MessageKind | undefined, source: string) => {
    if (seen.has(el)) return;
    seen.add(el);
    if (!isShown(el)) return;
    const text = textOf(el);
    if (text.length < 2 || text.length > MAX_MESSAGE_SOURCE) return;
    const byText = messageKindOfText(text);
    // An alert is an error unless its words say success; a status region or an unmarked
    // new message only counts when its words say which it is.
    const resolved =
      source === 'alert' ? (byText === 'success' ? 'success' : 'error') : (kind ?? byText);
    if (resolved) add(resolved, text);
  };

  for (const hit of hits) consider(hit.el, hit.kind, hit.source);
  for (const message of recent) consider(message.el, message.kind, 'recent');
  for (const field of fields) {
    if (!field.state?.split(',').includes('invalid')) continue;
    const described = describedError(field.el);
    add('error', `${field.name || field.role} is invalid${described ? `: ${described}` : ''}`);
  }

  const hasErrors = errors.size > 0;
  const hasSuccess = successes.size > 0;
  const report: SentinelReport = {
    hasErrors,
    hasSuccess,
    errors_detected: [...errors],
    success_messages: [...successes],
  };
  if (hasErrors) report.verification_passed = false;
  else if (hasSuccess) report.verification_passed = true;
  return report;
}

function describedError(el: Element): string {
  const ids = el.getAttribute('aria-errormessage') ?? el.getAttribute('aria-describedby');
  if (!ids) return '';
  const root = el.getRootNode() as Document | ShadowRoot;
  const parts: string[] = [];
  for (const id of ids.split(/\s+/)) {
    const target = root.getElementById(id);
    if (target && isShown(target)) parts.push(textOf(target));
  }
  return cap(parts.join(' '), 120);
}
