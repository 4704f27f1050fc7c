// Helpers both adapters use, so ids, keys, times and cursors mean the same thing in each.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

export const nowIso = (): string => new Date().toISOString();

/**
 * Normalises any parseable time to the port's ISO form (UTC, ms): the libSQL adapter compares
 * times as TEXT, so a caller's "+02:00" offset must not reach a column as written.
 */
export function isoTime(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new Error(`Invalid timestamp: ${value}`);
  return new Date(time).toISOString();
}

export const isoPlusMs = (value: string, ms: number): string =>
  new Date(Date.parse(value) + ms).toISOString();

/** API keys: `tdm_` + 32 random bytes, base64url. Only the sha256 hash is ever stored. */
export const API_KEY_PREFIX = 'tdm_';

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(plaintextKey: string): string {
  return createHash('sha256').update(plaintextKey, 'utf8').digest('hex');
}

/** What lists show of a key: enough to recognise it, never enough to use it. */
export function keyDisplayPrefix(plaintextKey: string): string {
  return plaintextKey.slice(0, API_KEY_PREFIX.length + 6);
}

/** Cursors are opaque to callers: base64url of a JSON tuple the adapter understands. */
export function encodeCursor(value: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): (string | number)[] | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(parsed) &&
      parsed.every((v) => typeof v === 'string' || typeof v === 'number')
      ? parsed
      : null;
  } catch {
    return null;
  }
}

/** UTC day (yyyy-mm-dd) of an ISO timestamp; usage rollups group by it. */
export const utcDay = (iso: string): string => iso.slice(0, 10);

export const clampLimit = (limit: number | undefined, fallback: number, max = 1000): number =>
  Math.max(1, Math.min(max, Math.floor(limit ?? fallback)));
