// Server URL and API key, set on the options page and read by the service worker; and the sites
// the user allowed Tandem to learn from.
import { KnowledgeDomain, parseSite, siteOf } from '@tandem/contracts';
import { z } from 'zod';

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:3000';
export const SETTINGS_KEY = 'settings';

export const Settings = z.object({
  serverUrl: z
    .url({ error: 'Server URL must be an absolute http(s) URL' })
    .refine((u) => /^https?:\/\//.test(u), 'Server URL must be http(s)'),
  apiKey: z.string().trim().min(1, 'API key is required'),
});
export type Settings = z.infer<typeof Settings>;

export interface KeyValueStore {
  /** One key's entry, or every entry with `null` (as chrome.storage.local.get). */
  get(key: string | null): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(key: string | string[]): Promise<void>;
}

export async function loadSettings(storage: KeyValueStore): Promise<Settings | null> {
  const raw = (await storage.get(SETTINGS_KEY))[SETTINGS_KEY];
  const parsed = Settings.safeParse(raw);
  return parsed.success
    ? { ...parsed.data, serverUrl: parsed.data.serverUrl.replace(/\/+$/, '') }
    : null;
}

// ---- Learning from pages (spec 003 Hardening B): the sites the user allowed ----------------
// While a task runs on one of these hosts, the worker sends the page's content to the server as
// the tenant's knowledge. Kept under its own key, apart from the server URL and key above, so
// saving one never overwrites the other. The list starts empty: nothing is sent by default.

export const LEARN_SITES_KEY = 'learnSites';

/** A site as the consent list keeps it: a host, with its port when not the default one. */
export const LearnSite = KnowledgeDomain.refine((site) => site !== '', 'a host name');
export const LearnSites = z.array(LearnSite);

/** The site of an http(s) page ("app.example.com", "127.0.0.1:8080"); null for any other URL. */
export const siteOfUrl = siteOf;

/** What the user typed ("app.example.com", or a URL of the site) as a site; null if not one. */
export { parseSite };

/**
 * The sites typed in a list ("a.example, b.example:8080"), each once; or the first word that
 * is not a site.
 */
export function parseSites(text: string): { sites: string[] } | { invalid: string } {
  const sites: string[] = [];
  for (const word of text.split(/[\s,]+/).filter(Boolean)) {
    const site = parseSite(word);
    if (!site) return { invalid: word };
    if (!sites.includes(site)) sites.push(site);
  }
  return { sites };
}

/** The allowed sites, sorted; an unreadable stored value counts as none. */
export async function loadLearnSites(storage: KeyValueStore): Promise<string[]> {
  const raw = (await storage.get(LEARN_SITES_KEY))[LEARN_SITES_KEY];
  const list = Array.isArray(raw) ? (raw as unknown[]) : [];
  const sites = list.flatMap((item) => {
    const parsed = LearnSite.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
  return [...new Set(sites)].sort();
}

/** Adds (allowed) or removes the site; returns the list as stored. */
export async function setSiteLearning(
  storage: KeyValueStore,
  site: string,
  allowed: boolean,
): Promise<string[]> {
  const current = await loadLearnSites(storage);
  const others = current.filter((s) => s !== site);
  const next = (allowed ? [...others, site] : others).sort();
  await storage.set({ [LEARN_SITES_KEY]: next });
  return next;
}

/** Whether the page's content may be sent: its exact site is on the list. */
export async function mayLearnFrom(storage: KeyValueStore, url: string): Promise<boolean> {
  const site = siteOfUrl(url);
  return site !== null && (await loadLearnSites(storage)).includes(site);
}
