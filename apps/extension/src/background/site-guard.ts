// The extension's own hold on the task's sites: while a task runs in a tab,
// Chrome itself blocks every top-level navigation of that tab outside the task's sites
// (declarativeNetRequest session rules scoped to the tab), so a page script that redirects on a
// click, a meta refresh or a link the page rewrote cannot take the task elsewhere, whatever the
// server said. The page's own checks (execute's allowedSites) refuse what the markup shows
// before anything happens; this catches the rest. A blocked navigation leaves the tab on an
// error page under the blocked URL: the loop sees that and goes back (escapedTo).
import { isSiteAllowed, siteOf } from '@tandem/contracts';
import type { TabDriver } from './tab-driver';

export interface SiteGuard {
  /** Blocks every top-level navigation of the tab outside `sites`, until release. */
  hold(tabId: number, sites: readonly string[]): Promise<void>;
  release(tabId: number): Promise<void>;
}

/** At most this many sites get an allow rule (two each, http and https). */
const SITES_MAX = 30;

type Rule = chrome.declarativeNetRequest.Rule;
type ResourceType = chrome.declarativeNetRequest.ResourceType;
type RuleActionType = chrome.declarativeNetRequest.RuleActionType;

const MAIN_FRAME = ['main_frame'] as ResourceType[];

/**
 * The tab's rules, without ids: block every main-frame request of the tab (priority 1), allow
 * those to the task's sites (priority 2, which wins). `urlFilter` anchors at the start of the
 * URL, so "|http://127.0.0.1:4000/" allows that host and port only.
 */
export function siteRules(tabId: number, sites: readonly string[]): Omit<Rule, 'id'>[] {
  return [
    {
      priority: 1,
      action: { type: 'block' as RuleActionType },
      condition: { tabIds: [tabId], resourceTypes: MAIN_FRAME },
    },
    ...sites.slice(0, SITES_MAX).flatMap((site) =>
      ['http', 'https'].map((scheme) => ({
        priority: 2,
        action: { type: 'allow' as RuleActionType },
        condition: {
          tabIds: [tabId],
          resourceTypes: MAIN_FRAME,
          urlFilter: `|${scheme}://${site}/`,
        },
      })),
    ),
  ];
}

/** `rules` numbered with the smallest ids not in `used` (rule ids are small integers). */
export function numbered(rules: Omit<Rule, 'id'>[], used: ReadonlySet<number>): Rule[] {
  const out: Rule[] = [];
  let id = 1;
  for (const rule of rules) {
    while (used.has(id)) id += 1;
    out.push({ ...rule, id });
    id += 1;
  }
  return out;
}

// Rule updates of one worker go one after the other: two tabs changing their rules at once
// must not pick the same ids.
let queue: Promise<unknown> = Promise.resolve();
const serial = <T>(work: () => Promise<T>): Promise<T> => {
  const result = queue.then(work);
  queue = result.catch(() => undefined);
  return result;
};

const dnr = () => chrome.declarativeNetRequest;

/** The session rules of the tab, and the ids every other rule uses. */
async function rulesOf(tabId: number): Promise<{ mine: number[]; others: Set<number> }> {
  const rules = await dnr().getSessionRules();
  const mine = rules.filter((r) => r.condition.tabIds?.includes(tabId)).map((r) => r.id);
  return { mine, others: new Set(rules.map((r) => r.id).filter((id) => !mine.includes(id))) };
}

export const chromeSiteGuard: SiteGuard = {
  hold: (tabId, sites) =>
    serial(async () => {
      const { mine, others } = await rulesOf(tabId);
      await dnr().updateSessionRules({
        removeRuleIds: mine,
        addRules: numbered(siteRules(tabId, sites), others),
      });
    }),
  release: (tabId) =>
    serial(async () => {
      const { mine } = await rulesOf(tabId);
      if (mine.length > 0) await dnr().updateSessionRules({ removeRuleIds: mine });
    }),
};

/**
 * Where the tab went outside the task's sites, after going back from it; null when it is on
 * one of them (or the driver cannot tell). A navigation the rules blocked shows an error page
 * under the blocked URL: going back returns to the page the task was on. Chrome's back skips
 * an entry a page added without a user gesture, though (a script that redirects on a scripted
 * click): back then lands before the task's page, on about:blank or another site, and the tab
 * opens `returnTo` (the page the step ran on) instead.
 */
export async function escapedTo(
  tabs: Pick<TabDriver, 'currentUrl' | 'goBack' | 'goTo'>,
  tabId: number,
  sites: readonly string[],
  returnTo?: string,
): Promise<string | null> {
  if (sites.length === 0 || !tabs.currentUrl) return null;
  const url = await tabs.currentUrl(tabId);
  if (!url || !/^https?:/i.test(url) || isSiteAllowed(url, sites)) return null;
  const reopen =
    returnTo !== undefined && isSiteAllowed(returnTo, sites) && tabs.goTo !== undefined;
  // Back fails outright when Chrome skips every earlier entry ("Cannot find a next page in
  // history"): the step's page is opened then too.
  let wentBack = true;
  try {
    await tabs.goBack?.(tabId);
  } catch (error) {
    if (!reopen) throw error;
    wentBack = false;
  }
  if (reopen && returnTo) {
    const now = wentBack ? await tabs.currentUrl(tabId) : undefined;
    if (!now || !isSiteAllowed(now, sites)) await tabs.goTo?.(tabId, returnTo);
  }
  return siteOf(url) ?? url;
}
