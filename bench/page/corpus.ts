// The real pages of data/pages-dev, decoded the way its README says: strict UTF-8 first, the
// page's declared charset when that fails. They are served re-encoded as UTF-8.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

export const PAGES_DIR = path.resolve(import.meta.dirname, '../../../shared/data/pages-dev/html');

function declaredCharset(head: string): string | undefined {
  const meta = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head);
  return meta?.[1]?.toLowerCase();
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

export interface CorpusPage {
  name: string;
  html: string;
}

/**
 * Whether the pages are there: they live in the shared data folder beside the checkout, which a
 * fresh clone (and CI) does not have. A bench without them says it skipped and exits 0.
 */
export function corpusAbsent(bench: string, dir = PAGES_DIR): boolean {
  if (existsSync(dir)) return false;
  console.log(`${bench} skipped: ${dir} is absent (fresh clones and CI have no shared data).`);
  return true;
}

export function loadCorpus(limit: number, dir = PAGES_DIR): CorpusPage[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.html.gz'))
    .sort()
    .slice(0, limit);
  return files.map((file) => ({
    name: file.replace(/\.html\.gz$/, ''),
    html: decodeHtml(gunzipSync(readFileSync(path.join(dir, file)))),
  }));
}
