// Loads data/pages-dev: gzipped HTML decoded as the README says (UTF-8, then the page's
// declared charset), and the ground truth's main text and page type.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface DevPage {
  id: string;
  url: string;
  type: string;
  html: string;
  truth: string;
}

interface GroundTruthFile {
  url?: string;
  _internal?: { page_type?: { primary?: string } };
  ground_truth?: { main_content?: string };
}

function declaredCharset(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 4096).toString('latin1');
  return /<meta[^>]+charset=["']?\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
}

export function decodeHtml(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const charset = declaredCharset(bytes) ?? 'windows-1252';
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      return new TextDecoder('windows-1252').decode(bytes);
    }
  }
}

export function loadPages(dir: string): DevPage[] | undefined {
  if (!existsSync(join(dir, 'ground-truth'))) return undefined;
  const files = readdirSync(join(dir, 'ground-truth'))
    .filter((f) => f.endsWith('.json'))
    .sort();
  return files.map((file) => {
    const id = file.replace(/\.json$/, '');
    const gt = JSON.parse(readFileSync(join(dir, 'ground-truth', file), 'utf8')) as GroundTruthFile;
    const bytes = gunzipSync(readFileSync(join(dir, 'html', `${id}.html.gz`)));
    return {
      id,
      url: gt.url ?? 'about:blank',
      type: gt._internal?.page_type?.primary ?? 'unknown',
      html: decodeHtml(bytes),
      truth: gt.ground_truth?.main_content ?? '',
    };
  });
}
