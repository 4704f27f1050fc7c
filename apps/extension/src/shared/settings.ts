// Server URL and API key, set on the options page and read by the service worker; and the sites
// the user allowed Tandem to learn from.
import { KnowledgeDomain, siteOf } from '@tandem/contracts';
import { z } from 'zod';

export const DEFAULT_SERVER_URL = 'http://127.0.0.1:3000';
export const SETTINGS_KEY = 'settings';

/** Whether `text` is a whole http(s) address with a host ("http://127.0.0.1:3000"). */
function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    return new URL(text).hostname !== '';
  } catch {
    return false;
  }
}

export const Settings = z.object({
  // One check with one message: a URL check and a scheme check each failing on
  // "example.com" said the same thing twice.
  serverUrl: z
    .string()
    .trim()
    .refine(
      isHttpUrl,
      'Server URL must start with http:// or https://, as in http://127.0.0.1:3000.',
    ),
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

// ---- Learning from pages (docs/specs.md, "two-phase SPA ingestion"): the sites the user allowed
// While a task runs on one of these hosts, the worker sends the page's content to the server as
// the tenant's knowledge. Kept under its own key, apart from the server URL and key above, so
// saving one never overwrites the other. The list starts empty: nothing is sent by default.

export const LEARN_SITES_KEY = 'learnSites';

/** A site as the consent list keeps it: a host, with its port when not the default one. */
export const LearnSite = KnowledgeDomain.refine((site) => site !== '', 'a host name');
export const LearnSites = z.array(LearnSite);

/** The site of an http(s) page ("app.example.com", "127.0.0.1:8080"); null for any other URL. */
export const siteOfUrl = siteOf;

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
