// The real pages of data/pages-dev (outside the repository: their HTML may not be copied in).
// Decoded as its README says: strict UTF-8 first, then the page's declared charset.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
export const PAGES_DEV_DIR = path.resolve(repoRoot, '../shared/data/pages-dev/html');

/** Why the corpus cases skip, or undefined when the pages are there. */
export const pagesDevMissing = (): string | undefined =>
  existsSync(PAGES_DEV_DIR)
    ? undefined
    : `data/pages-dev not found at ${PAGES_DEV_DIR}: corpus cases skipped`;

function declaredCharset(head: string): string | undefined {
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
}

export function decodeHtml(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const charset = declaredCharset(bytes.subarray(0, 4096).toString('latin1')) ?? 'windows-1252';
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      return new TextDecoder('windows-1252').decode(bytes);
    }
  }
}

export const pageNames = (): string[] =>
  readdirSync(PAGES_DEV_DIR)
    .filter((file) => file.endsWith('.html.gz'))
    .map((file) => file.replace(/\.html\.gz$/, ''))
    .sort();

export const readPage = (name: string): string =>
  decodeHtml(gunzipSync(readFileSync(path.join(PAGES_DEV_DIR, `${name}.html.gz`))));

/** A stable, fake origin per page: relative links resolve the same on every run. */
export const pageUrl = (name: string): string => `https://pages-dev.example/${name}`;
