// The Tandem Health developer docs as a crawlable site: which pages exist, which ones the
// sitemap lists, and the routes a static file server cannot express (robots.txt and sitemaps
// with absolute URLs, a redirect loop). Crawler tests and the knowledge bench read these
// constants instead of hard-coding paths.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, send } from './http';

/** Every docs page, by key. `index` is the API reference other tests snapshot verbatim. */
export const DOCS_PAGES = {
  index: '/docs/',
  gettingStarted: '/docs/getting-started.html',
  authentication: '/docs/authentication.html',
  patients: '/docs/patients.html',
  appointments: '/docs/appointments.html',
  webhooks: '/docs/webhooks.html',
  rateLimits: '/docs/rate-limits.html',
  errors: '/docs/errors.html',
  sdks: '/docs/sdks.html',
  billing: '/docs/billing.html',
  changelog: '/docs/changelog.html',
  faq: '/docs/faq.html',
  /** Linked from the sidebar but left out of the sitemap: only a spider finds it. */
  sandbox: '/docs/sandbox.html',
  /** Staff-only; robots.txt disallows /docs/internal/. Linked from every page's footer. */
  internalRunbook: '/docs/internal/runbook.html',
} as const;

export type DocsPage = keyof typeof DOCS_PAGES;

/** The pages /docs/sitemap.xml lists: every public page except the sandbox guide. */
export const DOCS_SITEMAP_PAGES: readonly string[] = Object.entries(DOCS_PAGES)
  .filter(([key]) => key !== 'sandbox' && key !== 'internalRunbook')
  .map(([, path]) => path);

/** The crawl edge cases the docs link to. */
export const DOCS_TRAPS = {
  /** Linked from the changelog; no such file (404). */
  missing: '/docs/migrate-v0.html',
  /** Linked from the FAQ; /docs/loop-a → /docs/loop-b → /docs/loop-a, forever. */
  loopA: '/docs/loop-a',
  loopB: '/docs/loop-b',
  /** Linked from the sandbox guide: JSON, not a page. */
  json: '/api/patients',
} as const;

export const DOCS_ROUTES = {
  robots: '/robots.txt',
  /** A sitemap index; today it holds one sitemap, the docs'. */
  sitemapIndex: '/sitemap.xml',
  docsSitemap: '/docs/sitemap.xml',
  disallowed: '/docs/internal/',
} as const;

// Fixed so sitemap bytes (and so any "unchanged" check on them) are stable across runs.
const LAST_MODIFIED = '2026-05-14';

/**
 * The origin as the client addressed it. Real robots.txt and sitemap files hold absolute
 * URLs; the Host header makes them right behind any port or proxy the tests use.
 */
function originOf(req: IncomingMessage): string {
  const host = req.headers.host ?? '127.0.0.1';
  return `http://${host}`;
}

function robotsTxt(origin: string): string {
  return [
    '# Tandem Health demo sites',
    'User-agent: *',
    `Disallow: ${DOCS_ROUTES.disallowed}`,
    'Allow: /',
    '',
    `Sitemap: ${origin}${DOCS_ROUTES.sitemapIndex}`,
    '',
  ].join('\n');
}

function sitemapIndexXml(origin: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap>
    <loc>${escapeHtml(origin + DOCS_ROUTES.docsSitemap)}</loc>
    <lastmod>${LAST_MODIFIED}</lastmod>
  </sitemap>
</sitemapindex>
`;
}

function docsSitemapXml(origin: string): string {
  const entries = DOCS_SITEMAP_PAGES.map(
    (page) => `  <url>
    <loc>${escapeHtml(origin + page)}</loc>
    <lastmod>${LAST_MODIFIED}</lastmod>
  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries.join('\n')}
</urlset>
`;
}

function redirect(res: ServerResponse, location: string): void {
  // 302, not 301: a cached permanent redirect would hide the loop from a second request.
  res.writeHead(302, { location, 'cache-control': 'no-store' }).end();
}

/** Answers the docs' dynamic routes; false when the path is not one of them. */
export function handleDocsRoute(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const origin = originOf(req);
  switch (pathname) {
    case DOCS_ROUTES.robots:
      send(res, 200, 'text/plain; charset=utf-8', robotsTxt(origin));
      return true;
    case DOCS_ROUTES.sitemapIndex:
      send(res, 200, 'application/xml; charset=utf-8', sitemapIndexXml(origin));
      return true;
    case DOCS_ROUTES.docsSitemap:
      send(res, 200, 'application/xml; charset=utf-8', docsSitemapXml(origin));
      return true;
    case DOCS_TRAPS.loopA:
      redirect(res, DOCS_TRAPS.loopB);
      return true;
    case DOCS_TRAPS.loopB:
      redirect(res, DOCS_TRAPS.loopA);
      return true;
    default:
      return false;
  }
}
