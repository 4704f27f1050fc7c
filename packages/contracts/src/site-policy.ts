// The sites a task may act on (OWASP LLM06, excessive agency): the site it started on, plus
// the sites the user added for it. A site is an exact host with its port when not the default
// ("app.example.com", "127.0.0.1:4000"), as the "learn from pages" consent list keeps it: a
// subdomain or another port is another site. The server refuses every navigating action
// outside the list and the extension blocks every navigation outside it; both read these
// functions, so they can never disagree on what "the same site" is.
import { z } from 'zod';
import { embeddedUrls } from './decoded-forms';
import { hostOf } from './url-host';

/** A host, lower-cased, with its port when not the default one. */
export const Site = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/, {
    error: 'a site is a host name such as app.example.com, with its port when not the default',
  })
  .meta({ description: 'A host with its port when not the default: "app.example.com".' });
export type Site = z.infer<typeof Site>;

/** Sites a user may add to one task besides the one it starts on. */
export const TASK_SITES_MAX = 20;

/** The extra sites of a task, as the client sends them (the start site is always allowed). */
export const TaskSites = z
  .array(Site)
  .max(TASK_SITES_MAX, { error: `at most ${TASK_SITES_MAX} sites` });
export type TaskSites = z.infer<typeof TaskSites>;

/** The site of an http(s) URL ("app.example.com", "127.0.0.1:8080"); null for any other. */
export function siteOf(url: string | null | undefined): string | null {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  const host = hostOf(url);
  return host ? host.toLowerCase() : null;
}

/** What a user typed ("app.example.com", or any URL of the site) as a site; null if not one. */
export function parseSite(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  const host = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? siteOf(text) : hostOf(`http://${text}`);
  if (!host) return null;
  const parsed = Site.safeParse(host);
  return parsed.success ? parsed.data : null;
}

/** The task's sites: where it started, then the user's additions, each once. */
export function taskSites(startUrl: string, extra: readonly string[] = []): string[] {
  const start = siteOf(startUrl);
  return [...new Set([...(start ? [start] : []), ...extra.map((s) => s.toLowerCase())])];
}

/** Whether `url` is an http(s) page of one of `sites`. */
export function isSiteAllowed(url: string, sites: readonly string[]): boolean {
  const site = siteOf(url);
  return site !== null && sites.includes(site);
}

/** "127.0.0.1:4000" or "127.0.0.1:4000, app.example.com": a list as people read it. */
export const sitesText = (sites: readonly string[]): string => sites.join(', ');

/**
 * Why a navigation to `url` is refused for a task on `sites`, or null when it is allowed. An
 * allowed page that carries another address (a redirector's `?u=`, a `#next=`, encoded or not)
 * is judged by that address too: the site's own redirector would take the browser there.
 */
export function siteRefusal(url: string, sites: readonly string[]): string | null {
  if (!isSiteAllowed(url, sites)) {
    const site = siteOf(url) ?? url.slice(0, 200);
    return `${site} is not one of this task's sites (${sitesText(sites)}); the user can add it when starting the task`;
  }
  const inner = embeddedUrls(url).find((address) => !isSiteAllowed(address, sites));
  if (!inner) return null;
  const site = siteOf(inner) ?? inner.slice(0, 200);
  return `the address carries another one, on ${site}, which is not one of this task's sites (${sitesText(sites)}): the page would send the browser there`;
}

/**
 * Whether the extension's report of a failed step says the browser refused it for safety: the
 * extension reports a failure as `code: message`, and `blocked` is the code of every refusal at
 * execution (a navigation or link outside the task's sites, a secret off its sites). The server
 * then refuses the same action from then on, as one the user rejected: an obeying model would
 * otherwise send it again and again.
 */
export const isBlockedActionError = (error: string | null | undefined): boolean =>
  typeof error === 'string' && error.startsWith('blocked: ');
