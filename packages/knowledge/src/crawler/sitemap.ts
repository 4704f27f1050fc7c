// Sitemaps (sitemaps.org 0.9): a <urlset> lists pages, a <sitemapindex> lists more sitemaps.
// Where to look follows what sites actually do: robots.txt `Sitemap:` lines first, else
// /sitemap.xml at the root and sitemap.xml in the start URL's directory (docs often live under
// a path of a bigger site). Indexes are followed breadth first with a cap, because an index can
// point at itself or fan out to thousands of files.
import { XMLParser } from 'fast-xml-parser';
import { normaliseUrl } from './urls';

export interface ParsedSitemap {
  /** Page URLs of a <urlset>, as written (absolute per the protocol). */
  urls: string[];
  /** Child sitemap URLs of a <sitemapindex>. */
  sitemaps: string[];
}

/** Sitemap files read per crawl at most, indexes included. */
export const MAX_SITEMAP_FILES = 25;

const parser = new XMLParser({
  ignoreAttributes: true,
  // Sitemaps are often written with a prefix (<sm:url>); the local name is what counts.
  removeNSPrefix: true,
  // Entities beyond the XML five are not needed in URLs and are an expansion-bomb risk.
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => name === 'url' || name === 'sitemap',
  parseTagValue: false,
  trimValues: true,
});

function locsOf(entries: unknown): string[] {
  if (!Array.isArray(entries)) return [];
  const locs: string[] = [];
  for (const entry of entries) {
    const loc = (entry as { loc?: unknown } | null)?.loc;
    if (typeof loc === 'string' && loc.trim() !== '') locs.push(loc.trim());
  }
  return locs;
}

/** Never throws: anything that is not a sitemap yields no URLs. */
export function parseSitemap(xml: string): ParsedSitemap {
  let document: Record<string, unknown>;
  try {
    document = parser.parse(xml) as Record<string, unknown>;
  } catch {
    return { urls: [], sitemaps: [] };
  }
  const urlset = document.urlset as { url?: unknown } | undefined;
  const index = document.sitemapindex as { sitemap?: unknown } | undefined;
  return { urls: locsOf(urlset?.url), sitemaps: locsOf(index?.sitemap) };
}

/** Where to look when robots.txt names no sitemap. */
export function defaultSitemapLocations(startUrl: string): string[] {
  const rootSitemap = new URL('/sitemap.xml', startUrl).href;
  const directorySitemap = new URL('sitemap.xml', startUrl).href;
  return [...new Set([rootSitemap, directorySitemap])];
}

/**
 * Every page URL reachable from `roots` through sitemap indexes, normalised and in order,
 * reading at most `maxFiles` files. `readSitemap` returns null when a file cannot be read.
 */
export async function collectSitemapUrls(
  roots: string[],
  readSitemap: (url: string) => Promise<string | null>,
  maxFiles = MAX_SITEMAP_FILES,
): Promise<{ urls: string[]; filesRead: number }> {
  const queue = roots.map((root) => normaliseUrl(root)).filter((url) => url !== null);
  const seenFiles = new Set<string>(queue);
  const urls = new Set<string>();
  let filesRead = 0;
  while (queue.length > 0 && filesRead < maxFiles) {
    const file = queue.shift() as string;
    const xml = await readSitemap(file);
    filesRead += 1;
    if (xml === null) continue;
    const parsed = parseSitemap(xml);
    for (const page of parsed.urls) {
      const url = normaliseUrl(page, file);
      if (url) urls.add(url);
    }
    for (const child of parsed.sitemaps) {
      const url = normaliseUrl(child, file);
      if (url && !seenFiles.has(url)) {
        seenFiles.add(url);
        queue.push(url);
      }
    }
  }
  return { urls: [...urls], filesRead };
}
