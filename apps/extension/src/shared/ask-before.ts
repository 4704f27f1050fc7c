// "Always ask before": the user's own marks. Besides paying, buying,
// deleting and sending, a click on any element whose name holds one of these phrases pauses
// the task for approval. Kept in chrome.storage.local, edited on the options page.
import { z } from 'zod';
import type { KeyValueStore } from './settings';

export const ASK_BEFORE_KEY = 'askBefore';
export const ASK_BEFORE_MAX = 50;

export const AskBeforePhrase = z.string().trim().min(2).max(80);

export async function loadAskBefore(storage: KeyValueStore): Promise<string[]> {
  const raw = (await storage.get(ASK_BEFORE_KEY))[ASK_BEFORE_KEY];
  const list = Array.isArray(raw) ? (raw as unknown[]) : [];
  const phrases = list.flatMap((item) => {
    const parsed = AskBeforePhrase.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
  return [...new Set(phrases)].sort((a, b) => a.localeCompare(b));
}

/** Adds (`on`) or removes the phrase; returns the list as stored. */
export async function setAskBefore(
  storage: KeyValueStore,
  phrase: string,
  on: boolean,
): Promise<string[]> {
  const clean = AskBeforePhrase.parse(phrase);
  const others = (await loadAskBefore(storage)).filter(
    (p) => p.toLowerCase() !== clean.toLowerCase(),
  );
  if (on && others.length >= ASK_BEFORE_MAX) throw new Error(`At most ${ASK_BEFORE_MAX} phrases.`);
  const next = (on ? [...others, clean] : others).sort((a, b) => a.localeCompare(b));
  await storage.set({ [ASK_BEFORE_KEY]: next });
  return next;
}
