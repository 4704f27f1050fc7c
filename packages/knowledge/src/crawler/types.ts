// The crawler's public shapes. A route hands runCrawl a job from the store; pages go to the
// caller's onPage (ingestion), and the job record is the only state, so any server can resume it.
import type { KnowledgeJob, KnowledgeJobRepository } from '@tandem/store';

export interface CrawledPage {
  /** The URL asked for (normalised). */
  url: string;
  /** After redirects. */
  finalUrl: string;
  depth: number;
  status: number;
  /** The media type without parameters, lowercased: "text/html", "application/pdf". */
  contentType: string;
  /** The Content-Type charset parameter when the server sent one ("utf-8", "iso-8859-1"). */
  charset?: string;
  /** Capped at maxPageBytes. */
  body: Uint8Array;
  /** True when the body was cut at maxPageBytes. */
  truncated: boolean;
  title?: string;
}

export type PageOutcome = 'ingested' | 'unchanged' | 'skipped';

export interface CrawlOptions {
  /** Default 2: workers, and requests in flight to one host. */
  concurrency?: number;
  /** Default 250: politeness, the least time between two request starts to the same host. */
  delayMs?: number;
  /** Default 15_000 per request (headers and body). */
  timeoutMs?: number;
  /** Default 5 MB. */
  maxPageBytes?: number;
  /** Default 'TandemBot/1.0 (+https://tandem.dev/bot)'; its product token matches robots.txt. */
  userAgent?: string;
  /**
   * Default false: refuse URLs that resolve to loopback/private/link-local addresses (SSRF),
   * re-checked on every redirect hop.
   */
  allowPrivateNetwork?: boolean;
  /** The tenant's allowed_domains; empty/absent = any. A domain covers its subdomains. */
  allowedDomains?: string[];
  /** Default global fetch; only for tests that need to route a request somewhere else. */
  fetch?: typeof fetch;
}

export interface CrawlDeps {
  jobs: Pick<KnowledgeJobRepository, 'get' | 'update'>;
  /** Stores the page (ingestion); throwing counts the page as failed, the crawl goes on. */
  onPage(page: CrawledPage): Promise<PageOutcome>;
  /** After every persisted change (for SSE). */
  onProgress?(job: KnowledgeJob): void;
  /** Server shutdown: stop, leave the job resumable (status stays running/queued). */
  signal?: AbortSignal;
}

export const CRAWL_DEFAULTS = {
  concurrency: 2,
  delayMs: 250,
  timeoutMs: 15_000,
  maxPageBytes: 5 * 1024 * 1024,
  userAgent: 'TandemBot/1.0 (+https://tandem.dev/bot)',
} as const;

/** Media types worth storing; everything else is fetched only as far as its headers. */
export const DOCUMENT_TYPES: ReadonlySet<string> = new Set([
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'text/markdown',
  'text/x-markdown',
  'application/pdf',
]);

export const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/** "Text/HTML; charset=UTF-8" → { mediaType: "text/html", charset: "utf-8" }. */
export function parseContentType(header: string): { mediaType: string; charset?: string } {
  const [type = '', ...params] = header.split(';');
  const mediaType = type.trim().toLowerCase();
  for (const param of params) {
    const [name, value] = param.split('=');
    if (name?.trim().toLowerCase() === 'charset' && value) {
      return { mediaType, charset: value.trim().replace(/^"|"$/g, '').toLowerCase() };
    }
  }
  return { mediaType };
}
