// The extension's own hold on the task's sites (issue 20, item 1): while a task runs in a tab,
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

/** Rule ids per tab: one block rule and two allow rules (http, https) per site. */
const RULES_PER_TAB = 64;
const firstRuleId = (tabId: number) => tabId * RULES_PER_TAB + 1;

type Rule = chrome.declarativeNetRequest.Rule;
type ResourceType = chrome.declarativeNetRequest.ResourceType;
type RuleActionType = chrome.declarativeNetRequest.RuleActionType;

const MAIN_FRAME = ['main_frame'] as ResourceType[];

/**
 * The tab's rules: block every main-frame request of the tab (priority 1), allow those to the
 * task's sites (priority 2, which wins). `urlFilter` anchors at the start of the URL, so
 * "|http://127.0.0.1:4000/" allows that host and port only.
 */
export function siteRules(tabId: number, sites: readonly string[]): Rule[] {
  const base = firstRuleId(tabId);
  const allowed = sites.slice(0, (RULES_PER_TAB - 1) / 2);
  return [
    {
      id: base,
      priority: 1,
      action: { type: 'block' as RuleActionType },
      condition: { tabIds: [tabId], resourceTypes: MAIN_FRAME },
    },
    ...allowed.flatMap((site, i) =>
      ['http', 'https'].map((scheme, j) => ({
        id: base + 1 + i * 2 + j,
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

const tabRuleIds = (tabId: number): number[] =>
  Array.from({ length: RULES_PER_TAB }, (_, i) => firstRuleId(tabId) + i);

// Rule updates of one worker go one after the other: two tabs changing their rules at once
// must not interleave their remove and add.
let queue: Promise<unknown> = Promise.resolve();
const serial = <T>(work: () => Promise<T>): Promise<T> => {
  const result = queue.then(work);
  queue = result.catch(() => undefined);
  return result;
};

export const chromeSiteGuard: SiteGuard = {
  hold: (tabId, sites) =>
    serial(() =>
      chrome.declarativeNetRequest.updateSessionRules({
        removeRuleIds: tabRuleIds(tabId),
        addRules: siteRules(tabId, sites),
      }),
    ),
  release: (tabId) =>
    serial(() =>
      chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: tabRuleIds(tabId) }),
    ),
};

/**
 * Where the tab went outside the task's sites, after going back from it; null when it is on
 * one of them (or the driver cannot tell). A navigation the rules blocked shows an error page
 * under the blocked URL: going back returns to the page the task was on.
 */
export async function escapedTo(
  tabs: Pick<TabDriver, 'currentUrl' | 'goBack'>,
  tabId: number,
  sites: readonly string[],
): Promise<string | null> {
  if (sites.length === 0 || !tabs.currentUrl) return null;
  const url = await tabs.currentUrl(tabId);
  if (!url || !/^https?:/i.test(url) || isSiteAllowed(url, sites)) return null;
  await tabs.goBack?.(tabId);
  return siteOf(url) ?? url;
}
