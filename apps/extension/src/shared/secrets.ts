// Secrets the server never sees. The user stores them on the options page,
// in chrome.storage.local (never sync: they stay on this machine). The server, and so the
// model, learns each one's name and sites only; the model types {{secret:name}}, and the worker
// fills the value in at execution time, on the secret's sites only, in the message to the page.
// Whatever goes to the server passes redactSecrets first, so a value the page echoes back (a
// field that shows what was typed, an error that quotes it) leaves as its placeholder.
import {
  fillPlaceholders,
  formatAction,
  safeParseAction,
  placeholdersIn,
  secretPlaceholder,
  SECRET_SITES_MAX,
  SECRETS_MAX,
  SecretName,
  Site,
  siteOf,
  type SecretRef,
} from '@tandem/contracts';
import { z } from 'zod';
import type { ApiClient } from './api-client';
import type { KeyValueStore } from './settings';

export const SECRETS_KEY = 'secrets';
/** Shorter values would be found (and redacted) all over ordinary pages. */
export const SECRET_VALUE_MIN = 4;

export const StoredSecret = z.object({
  name: SecretName,
  value: z
    .string()
    .min(SECRET_VALUE_MIN, { error: `a secret has at least ${SECRET_VALUE_MIN} characters` })
    .max(4_096),
  sites: z.array(Site).min(1, { error: 'a secret needs the site it is for' }).max(SECRET_SITES_MAX),
});
export type StoredSecret = z.infer<typeof StoredSecret>;

/** The stored secrets, by name; an unreadable entry counts as none. */
export async function loadSecrets(storage: KeyValueStore): Promise<StoredSecret[]> {
  const raw = (await storage.get(SECRETS_KEY))[SECRETS_KEY];
  const list = Array.isArray(raw) ? (raw as unknown[]) : [];
  return list
    .flatMap((item) => {
      const parsed = StoredSecret.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Adds the secret, or replaces the one of the same name; returns the list as stored. */
export async function saveSecret(
  storage: KeyValueStore,
  secret: StoredSecret,
): Promise<StoredSecret[]> {
  const others = (await loadSecrets(storage)).filter((s) => s.name !== secret.name);
  if (others.length >= SECRETS_MAX) throw new Error(`At most ${SECRETS_MAX} secrets.`);
  const next = [...others, StoredSecret.parse(secret)].sort((a, b) => a.name.localeCompare(b.name));
  await storage.set({ [SECRETS_KEY]: next });
  return next;
}

export async function removeSecret(storage: KeyValueStore, name: string): Promise<StoredSecret[]> {
  const next = (await loadSecrets(storage)).filter((s) => s.name !== name);
  await storage.set({ [SECRETS_KEY]: next });
  return next;
}

/** What the server may know of them: names and sites. */
export const secretRefs = (secrets: readonly StoredSecret[]): SecretRef[] =>
  secrets.map(({ name, sites }) => ({ name, sites }));

/**
 * `value` with every stored secret value, wherever it occurs in a string of it (deeply, in
 * objects and arrays), replaced by its placeholder. Longest values first, so a secret that
 * contains another is replaced whole.
 */
export function redactSecrets<T>(value: T, secrets: readonly StoredSecret[]): T {
  if (secrets.length === 0) return value;
  const ordered = [...secrets].sort((a, b) => b.value.length - a.value.length);
  const redact = (item: unknown): unknown => {
    if (typeof item === 'string')
      return ordered.reduce(
        (text, s) =>
          text.includes(s.value) ? text.split(s.value).join(secretPlaceholder(s.name)) : text,
        item,
      );
    if (Array.isArray(item)) return item.map(redact);
    if (item && typeof item === 'object')
      return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, redact(v)]));
    return item;
  };
  return redact(value) as T;
}

export type FilledAction =
  { ok: true; action: string; typeOnlyOn?: string[] } | { ok: false; error: string };

/**
 * The action to hand to the page: its placeholders filled with the values, when the page it
 * runs on (`pageUrl`) is of every named secret's sites; `typeOnlyOn` is then what the page
 * checks again at the moment of typing. An action without placeholders is returned as it is.
 */
export function fillSecrets(
  action: string,
  secrets: readonly StoredSecret[],
  pageUrl: string,
): FilledAction {
  const names = placeholdersIn(action);
  if (names.length === 0) return { ok: true, action };
  const site = siteOf(pageUrl);
  let typeOnlyOn: string[] | null = null;
  for (const name of names) {
    const secret = secrets.find((s) => s.name === name);
    if (!secret)
      return { ok: false, error: `no secret named ${secretPlaceholder(name)} is stored` };
    if (!site || !secret.sites.includes(site))
      return {
        ok: false,
        error: `${secretPlaceholder(name)} may only be typed on ${secret.sites.join(', ')}, not on ${site ?? 'this page'}`,
      };
    typeOnlyOn = (typeOnlyOn ?? secret.sites).filter((s) => secret.sites.includes(s));
  }
  // Filled in the parsed action, never in the text: a value with quotes or backslashes is then
  // escaped by formatAction instead of ending the argument it stands in.
  const parsed = safeParseAction(action);
  if (!parsed.ok) return { ok: false, error: parsed.error.message };
  const valueOf = (name: string) => secrets.find((s) => s.name === name)?.value;
  const typed = parsed.action;
  if (typed.name === 'setValue') {
    const text = fillPlaceholders(typed.args.text, valueOf);
    return {
      ok: true,
      action: formatAction({ ...typed, args: { ...typed.args, text } }),
      typeOnlyOn: typeOnlyOn ?? [],
    };
  }
  if (typed.name === 'select') {
    const option = fillPlaceholders(typed.args.option, valueOf);
    return {
      ok: true,
      action: formatAction({ ...typed, args: { ...typed.args, option } }),
      typeOnlyOn: typeOnlyOn ?? [],
    };
  }
  return { ok: false, error: 'a secret may only be typed into a field' };
}

/**
 * The API client with everything it sends to the server redacted first: the interact requests
 * (the page's elements, values, snapshots, errors, the report on the last step) and the page
 * content sent to the tenant's knowledge. The one door secrets could leave by, closed here.
 */
export function redactingApi<A extends Pick<ApiClient, 'interact' | 'pageContent'>>(
  api: A,
  secrets: () => Promise<readonly StoredSecret[]>,
): A {
  return {
    ...api,
    interact: async (body, signal) => api.interact(redactSecrets(body, await secrets()), signal),
    pageContent: async (body) => api.pageContent(redactSecrets(body, await secrets())),
  };
}
