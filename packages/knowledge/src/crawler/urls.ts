// URL rules of the crawler: one canonical spelling per page (so `visited` really dedupes), what
// counts as the same site, and which links can never be a page worth fetching.

/**
 * Canonical form of an http(s) URL, or null for anything else (mailto:, javascript:, data:,
 * malformed). WHATWG URL parsing already lowercases the scheme and host, drops default ports,
 * resolves dot segments and normalises percent-encoding; on top of that we drop the fragment
 * (same document) and credentials (never sent by a crawler, and a way to smuggle secrets into
 * logs). The query is kept in its order: reordering can change what a server returns.
 */
export function normaliseUrl(input: string, base?: string | URL): string | null {
  let url: URL;
  try {
    url = new URL(input.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  url.hash = '';
  url.username = '';
  url.password = '';
  // `/search?` and `/search` are one resource; an empty search getter hides the bare `?`.
  if (url.search === '') url.search = '';
  return url.href;
}

/** `www.example.com` and `example.com` are one site to people, so they are one to us. */
export function siteHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** Whether `host` is `domain` or one of its subdomains (www. either side is ignored). */
export function hostCovers(domain: string, host: string): boolean {
  const d = siteHost(domain);
  const h = siteHost(host);
  return h === d || h.endsWith(`.${d}`);
}

/**
 * Same site as the crawl's start URL: its host or a subdomain of it. Ports are not compared:
 * a site that links from :80 to :443 (http to https) is still the same site.
 */
export function isSameSite(url: string, startUrl: string): boolean {
  return hostCovers(new URL(startUrl).hostname, new URL(url).hostname);
}

/** A tenant's allowed_domains entry may be written as a URL or with a wildcard; keep the host. */
function domainOf(entry: string): string {
  const trimmed = entry.trim().toLowerCase();
  const withoutScheme = trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  const host = withoutScheme.split('/')[0] ?? '';
  return host.replace(/^\*\./, '').replace(/:\d+$/, '');
}

/** Empty or absent list: every domain. Otherwise the host must be covered by one entry. */
export function isDomainAllowed(hostname: string, allowedDomains?: readonly string[]): boolean {
  const domains = (allowedDomains ?? []).map(domainOf).filter((domain) => domain !== '');
  if (domains.length === 0) return true;
  return domains.some((domain) => hostCovers(domain, hostname));
}

// Links that are assets or archives by their extension. Fetching them would spend the page
// budget on bytes we skip anyway; a page without an extension (or .html, .md, .pdf) is fetched
// and its Content-Type decides.
const NON_PAGE_EXTENSIONS = new Set([
  'css', 'js', 'mjs', 'json', 'xml', 'rss', 'atom', 'png', 'jpg', 'jpeg', 'gif', 'webp', 'svg',
  'ico', 'bmp', 'tif', 'tiff', 'avif', 'mp3', 'mp4', 'm4a', 'wav', 'ogg', 'webm', 'mov', 'avi',
  'woff', 'woff2', 'ttf', 'otf', 'eot', 'zip', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'tar',
  'exe', 'dmg', 'msi', 'pkg', 'deb', 'rpm', 'apk', 'iso', 'bin', 'wasm',
]); // prettier-ignore

export function looksLikeNonPage(url: string): boolean {
  const last = new URL(url).pathname.split('/').at(-1) ?? '';
  const dot = last.lastIndexOf('.');
  if (dot <= 0) return false;
  return NON_PAGE_EXTENSIONS.has(last.slice(dot + 1).toLowerCase());
}
