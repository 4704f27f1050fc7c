// execute(): runs one action of the grammar on the page. Element actions resolve their id
// (resolve.ts), then check the element is enabled, visible and not covered (pointer.ts)
// before touching it; clickAt checks the element at its point the same way (click-at.ts).
// Any doubt fails with a code instead of acting on the wrong element.
import type { ParsedAction } from '@tandem/contracts';
import {
  formatAction,
  ParsedAction as ParsedActionSchema,
  safeParseAction,
  siteOf,
} from '@tandem/contracts';
import { destinationOf } from '../capture/destination';
import { EDITABLE_ROLES } from '../capture/roles';
import { clickAt } from './click-at';
import { pressKey } from './keyboard';
import { clickElement, hoverElement, prepareTarget } from './pointer';
import type { Resolved } from './resolve';
import { resolveElement } from './resolve';
import type { ExecuteResult } from './result';
import { ActionFailure, fail } from './result';
import { scrollElement, scrollPage } from './scroll';
import { selectCustomOption, selectNativeOption } from './select';
import { setValue } from './set-value';

export interface ExecuteOptions {
  /** Document the ids were captured in (default: the current one). */
  document?: Document;
  /** How long select() waits for a custom dropdown's options to appear. Default 1500 ms. */
  optionTimeoutMs?: number;
  /**
   * The sites the task may go to: a navigate(), or a click on a link or submit button, that
   * leads anywhere else is refused (`blocked`) before anything happens. Absent: no limit.
   */
  allowedSites?: readonly string[];
  /**
   * The action types a secret's value: it runs only on a page of these sites (`blocked`
   * elsewhere), checked here, in the page, at the moment of typing.
   */
  typeOnlyOn?: readonly string[];
}

function parse(
  action: string | ParsedAction,
): { ok: true; action: ParsedAction } | { ok: false; error: string } {
  if (typeof action === 'string') {
    const parsed = safeParseAction(action);
    return parsed.ok ? parsed : { ok: false, error: parsed.error.message };
  }
  const checked = ParsedActionSchema.safeParse(action);
  return checked.success
    ? { ok: true, action: checked.data }
    : { ok: false, error: checked.error.message };
}

const sleep = (win: Window, ms: number) =>
  new Promise<void>((resolve) => win.setTimeout(resolve, ms));

const joinNotes = (...notes: (string | undefined)[]): string | undefined => {
  const present = notes.filter((n): n is string => Boolean(n));
  return present.length > 0 ? present.join('; ') : undefined;
};

async function run(
  action: ParsedAction,
  doc: Document,
  options: ExecuteOptions,
): Promise<string | undefined> {
  const win = doc.defaultView ?? window;
  const target = (id: string): Resolved => resolveElement(doc, id);
  const leads = (el: Element) => guardDestination(destinationOf(el), options);
  guardTyping(action, doc, options);
  switch (action.name) {
    case 'click': {
      const found = target(action.args.id);
      leads(found.el);
      const point = prepareTarget(found.el, found.role, doc);
      clickElement(found.el, point);
      return found.refound;
    }
    case 'clickAt':
      return clickAt(doc, action.args.x, action.args.y, leads);
    case 'hover': {
      const found = target(action.args.id);
      hoverElement(found.el, prepareTarget(found.el, found.role, doc));
      return found.refound;
    }
    case 'setValue': {
      const found = target(action.args.id);
      const point = prepareTarget(found.el, found.role, doc);
      if (
        !EDITABLE_ROLES.has(found.role) &&
        found.el.tagName !== 'INPUT' &&
        found.el.tagName !== 'SELECT'
      ) {
        fail(
          'invalid_action',
          `element ${action.args.id} (${found.role}) does not take typed text`,
        );
      }
      const note = setValue(found.el, found.role, action.args.text, () =>
        clickElement(found.el, point),
      );
      return joinNotes(found.refound, note);
    }
    case 'select': {
      const found = target(action.args.id);
      const point = prepareTarget(found.el, found.role, doc);
      if (found.el.tagName === 'SELECT') {
        return joinNotes(
          found.refound,
          selectNativeOption(found.el as HTMLSelectElement, action.args.option),
        );
      }
      const editable = found.el.tagName === 'INPUT' || found.el.tagName === 'TEXTAREA';
      const note = await selectCustomOption(
        found.el,
        action.args.option,
        {
          open: () => clickElement(found.el, point),
          clickOption: (option) => clickElement(option, prepareTarget(option, 'opt', doc)),
          typeText: editable
            ? (text) => setValue(found.el, found.role, text, () => undefined)
            : undefined,
        },
        options.optionTimeoutMs ?? 1500,
      );
      return joinNotes(found.refound, note);
    }
    case 'press':
      pressKey(doc, action.args.key);
      return undefined;
    case 'scroll': {
      if ('direction' in action.args) return scrollPage(doc, action.args.direction);
      const found = target(action.args.id);
      return joinNotes(found.refound, scrollElement(found.el));
    }
    // Leaving the page destroys this script; deferring by a task lets the caller receive the
    // result (a content script's reply to the service worker) before the unload.
    case 'navigate': {
      const url = action.args.url;
      guardDestination(url, options);
      win.setTimeout(() => win.location.assign(url), 0);
      return undefined;
    }
    case 'goBack':
      win.setTimeout(() => win.history.back(), 0);
      return undefined;
    case 'wait':
      await sleep(win, action.args.seconds * 1000);
      return undefined;
    case 'finish':
    case 'fail':
      // Terminal actions end the task on the server; there is nothing to do on the page.
      return undefined;
    case 'googleSearch':
      return fail('unsupported', 'googleSearch runs on the server, not in the page');
  }
}

/** Refuses to go to `url` (a click's destination, a navigate) outside the allowed sites. */
function guardDestination(url: string | null, options: ExecuteOptions): void {
  const sites = options.allowedSites;
  if (!sites || url === null) return;
  const site = siteOf(url);
  if (site && !sites.includes(site))
    fail('blocked', `${site} is not one of this task's sites (${sites.join(', ')})`);
}

/** Refuses to type a secret on a page outside its sites. */
function guardTyping(action: ParsedAction, doc: Document, options: ExecuteOptions): void {
  const only = options.typeOnlyOn;
  if (!only || (action.name !== 'setValue' && action.name !== 'select')) return;
  const here = siteOf(doc.defaultView?.location.href ?? doc.URL);
  if (!here || !only.includes(here))
    fail(
      'blocked',
      `this secret may only be typed on ${only.join(', ')}, not on ${here ?? 'this page'}`,
    );
}

/**
 * Executes one action (a grammar string or a ParsedAction). Never throws: every failure is a
 * result with a code the extension can report as `lastActionError` / `chainActionError`.
 */
export async function execute(
  action: string | ParsedAction,
  options: ExecuteOptions = {},
): Promise<ExecuteResult> {
  const parsed = parse(action);
  if (!parsed.ok) {
    const text = typeof action === 'string' ? action : JSON.stringify(action);
    return { ok: false, action: text, error: parsed.error, code: 'invalid_action' };
  }
  const text = formatAction(parsed.action);
  try {
    const detail = await run(parsed.action, options.document ?? document, options);
    return detail ? { ok: true, action: text, detail } : { ok: true, action: text };
  } catch (error) {
    if (error instanceof ActionFailure)
      return { ok: false, action: text, error: error.message, code: error.code };
    return {
      ok: false,
      action: text,
      error: error instanceof Error ? error.message : String(error),
      code: 'failed',
    };
  }
}
