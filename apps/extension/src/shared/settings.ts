// Server URL and API key, set on the options page and read by the service worker.
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
  get(key: string): Promise<Record<string, unknown>>;
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
