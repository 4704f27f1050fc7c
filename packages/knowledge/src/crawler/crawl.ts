// Runs one crawl job to its end, to a shutdown (resumable) or to a cancellation.
//
// The job record is the whole state: after every page the frontier, visited set, progress and
// errors are written back through jobs.update. At our sizes (maxPages in the hundreds, URLs of
// ~100 bytes) that is one small row write per page, noise next to fetching and embedding the
// page, and it buys exact resumption: a restarted server continues from the record and never
// fetches a visited URL again. The same write returns the job as stored, which is how a
// cancellation made through the API is noticed between pages.
import type { KnowledgeJob, KnowledgeJobPatch } from '@tandem/store';
import { CrawlState } from './crawl-state';
import type { FrontierItem } from './crawl-state';
import { HostGate } from './host-gate';
import { decodeBody, readHtml } from './html-links';
import { httpGet, PageError, PageSkipped } from './http-client';
import type { HttpClientOptions, HttpResult } from './http-client';
import { checkCrawlUrl, CrawlRefusedError } from './network-guard';
import type { CrawlUrlPolicy } from './network-guard';
import { RobotsCache } from './robots';
import { collectSitemapUrls, defaultSitemapLocations } from './sitemap';
import { CRAWL_DEFAULTS, DOCUMENT_TYPES, HTML_TYPES, parseContentType } from './types';
import type { CrawlDeps, CrawledPage, CrawlOptions, PageOutcome } from './types';
import { isDomainAllowed, isSameSite, looksLikeNonPage, normaliseUrl } from './urls';

const FINISHED = new Set<KnowledgeJob['status']>(['completed', 'failed', 'cancelled']);
const PAGE_ACCEPT =
  'text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/pdf;q=0.8,*/*;q=0.1';

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

class Crawler {
  #job: KnowledgeJob;
  readonly #state: CrawlState;
  readonly #http: HttpClientOptions;
  readonly #robots: RobotsCache;
  readonly #policy: CrawlUrlPolicy;
  readonly #concurrency: number;
  readonly #start: string;
  #cancelled = false;
  #fatal: { error: unknown } | undefined;
  #writes: Promise<void> = Promise.resolve();

  constructor(
    job: KnowledgeJob,
    private readonly deps: CrawlDeps,
    options: CrawlOptions,
  ) {
    this.#job = job;
    this.#state = new CrawlState(job, job.maxPages);
    this.#start = normaliseUrl(job.url) ?? job.url;
    this.#concurrency = Math.max(1, options.concurrency ?? CRAWL_DEFAULTS.concurrency);
    this.#policy = {
      allowPrivateNetwork: options.allowPrivateNetwork ?? false,
      allowedDomains: options.allowedDomains ?? [],
    };
    this.#http = {
      fetch: options.fetch ?? globalThis.fetch,
      gate: new HostGate(this.#concurrency, options.delayMs ?? CRAWL_DEFAULTS.delayMs),
      userAgent: options.userAgent ?? CRAWL_DEFAULTS.userAgent,
      timeoutMs: options.timeoutMs ?? CRAWL_DEFAULTS.timeoutMs,
      maxBytes: options.maxPageBytes ?? CRAWL_DEFAULTS.maxPageBytes,
      ...(deps.signal ? { signal: deps.signal } : {}),
    };
    this.#robots = new RobotsCache(this.#http, (url) => this.#checkNetwork(url));
  }

  get #stopped(): boolean {
    return this.#cancelled || this.#fatal !== undefined || this.deps.signal?.aborted === true;
  }

  async run(): Promise<KnowledgeJob> {
    if (this.#job.status === 'queued') {
      await this.#persist({ status: 'running', startedAt: new Date().toISOString() });
    }
    if (this.#state.isFresh && !this.#stopped) {
      let refusal: string | undefined;
      try {
        refusal = await this.#seedOrRefusal();
      } catch (error) {
        // Shutdown mid-seeding: persist nothing, so the resumed job seeds again from scratch
        // instead of trusting a half-read sitemap.
        if (this.deps.signal?.aborted) return this.#job;
        throw error;
      }
      if (refusal !== undefined) return this.#finish(refusal);
      await this.#persist();
    }
    await Promise.all(Array.from({ length: this.#concurrency }, () => this.#worker()));
    await this.#writes;
    if (this.#fatal) throw this.#fatal.error;
    if (this.deps.signal?.aborted || this.#cancelled) return this.#job;
    return this.#finish();
  }

  /** Seeds the frontier from the strategy; returns why the job cannot run, if it cannot. */
  async #seedOrRefusal(): Promise<string | undefined> {
    try {
      await checkCrawlUrl(this.#start, this.#policy);
    } catch (error) {
      if (error instanceof CrawlRefusedError) return error.message;
      throw error;
    }
    if (this.#job.strategy !== 'sitemap') {
      await this.#admit(this.#start, 0);
      return undefined;
    }
    const urls = await this.#sitemapUrls();
    if (urls.length === 0) {
      this.#state.addError(this.#start, 'No sitemap found; crawling the start URL only.');
      await this.#admit(this.#start, 0);
    }
    for (const url of urls) await this.#admit(url, 0);
    return undefined;
  }

  async #sitemapUrls(): Promise<string[]> {
    const robots = await this.#robots.rulesFor(this.#start);
    const read = (url: string) => this.#readText(url);
    const named = robots.sitemaps();
    if (named.length > 0) {
      const { urls } = await collectSitemapUrls(named, read);
      if (urls.length > 0) return urls;
    }
    // No Sitemap: line, or only stale ones: try where sitemaps usually are.
    const fallback = defaultSitemapLocations(this.#start).filter((url) => !named.includes(url));
    return (await collectSitemapUrls(fallback, read)).urls;
  }

  /** A sitemap's text, or null when it cannot be read; never counted as a page. */
  async #readText(url: string): Promise<string | null> {
    try {
      const result = await httpGet(url, this.#http, {
        accept: 'application/xml,text/xml;q=0.9,*/*;q=0.1',
        checkHop: (hop) => this.#checkNetwork(hop),
        wantBody: (status) => status >= 200 && status < 300,
      });
      return result.body ? decodeBody(result.body) : null;
    } catch (error) {
      if (error instanceof PageError || error instanceof PageSkipped) return null;
      throw error;
    }
  }

  /** Queues a URL found in a sitemap or a link, if it is in scope and robots.txt allows it. */
  async #admit(url: string, depth: number): Promise<void> {
    if (this.#state.has(url) || !this.#state.hasRoom) return;
    if (!isSameSite(url, this.#start) || looksLikeNonPage(url)) return;
    if (!isDomainAllowed(new URL(url).hostname, this.#policy.allowedDomains)) return;
    const robots = await this.#robots.rulesFor(url);
    if (robots.isAllowed(url)) this.#state.enqueue(url, depth);
    else this.#state.refuse(url);
  }

  async #worker(): Promise<void> {
    while (!this.#stopped) {
      const item = this.#state.take();
      if (!item) {
        if (!this.#state.busy) return;
        await this.#state.changed();
        continue;
      }
      try {
        await this.#crawlPage(item);
        await this.#persist();
      } catch (error) {
        // A store or programming error: stop every worker and let runCrawl reject. The job
        // stays running with its last persisted state, so it resumes like after a crash.
        this.#fatal ??= { error };
        this.#state.requeue(item);
      }
    }
  }

  async #crawlPage(item: FrontierItem): Promise<void> {
    const hops: string[] = [];
    try {
      const result = await httpGet(
        item.url,
        this.#http,
        {
          accept: PAGE_ACCEPT,
          checkHop: (url) => this.#checkPageHop(url, item.url),
          wantBody: (status, type) =>
            status >= 200 && status < 300 && DOCUMENT_TYPES.has(parseContentType(type).mediaType),
        },
        hops,
      );
      this.#state.countFetched(item);
      await this.#handleResponse(item, result);
    } catch (error) {
      if (!(error instanceof PageError || error instanceof PageSkipped)) {
        // Shutdown while waiting for the politeness gate: nothing was fetched, do it on resume.
        if (this.deps.signal?.aborted) {
          this.#state.requeue(item);
          return;
        }
        throw error;
      }
      // A request went out (hops records each one as it starts): that counts as fetched.
      if (hops.length > 0) this.#state.countFetched(item);
      this.#record(item, error);
    }
    this.#state.finish(item, hops);
  }

  #record(item: FrontierItem, error: PageError | PageSkipped): void {
    if (error instanceof PageSkipped) {
      this.#state.progress.skipped += 1;
      return;
    }
    this.#state.progress.failed += 1;
    this.#state.addError(item.url, error.message);
  }

  async #handleResponse(item: FrontierItem, result: HttpResult): Promise<void> {
    if (result.status < 200 || result.status >= 300) {
      throw new FetchedPageError(`HTTP ${result.status}`);
    }
    const { mediaType, charset } = parseContentType(result.contentType);
    if (!result.body) {
      this.#state.progress.skipped += 1;
      return;
    }
    const page: CrawledPage = {
      url: item.url,
      finalUrl: result.finalUrl,
      depth: item.depth,
      status: result.status,
      contentType: mediaType,
      ...(charset ? { charset } : {}),
      body: result.body,
      truncated: result.truncated,
    };
    if (HTML_TYPES.has(mediaType)) {
      const html = readHtml(decodeBody(result.body, charset), result.finalUrl);
      if (html.title) page.title = html.title;
      if (this.#job.strategy === 'spider' && item.depth < this.#job.maxDepth) {
        for (const link of html.links) await this.#admit(link, item.depth + 1);
      }
    }
    let outcome: PageOutcome;
    try {
      outcome = await this.deps.onPage(page);
    } catch (error) {
      throw new FetchedPageError(`processing failed: ${messageOf(error)}`);
    }
    this.#state.progress[outcome] += 1;
  }

  async #checkNetwork(url: string): Promise<void> {
    try {
      await checkCrawlUrl(url, this.#policy);
    } catch (error) {
      if (error instanceof CrawlRefusedError) throw new PageError(`refused: ${error.message}`);
      throw error;
    }
  }

  /** Every hop of a page: network-safe, in scope, not crawled already, allowed by robots.txt. */
  async #checkPageHop(url: string, asked: string): Promise<void> {
    // First, so a redirect into our network is reported as refused, not as merely off-site.
    await this.#checkNetwork(url);
    if (url !== asked) {
      if (!isSameSite(url, this.#start)) throw new PageSkipped(`redirected off-site to ${url}`);
      if (this.#state.isVisited(url)) throw new PageSkipped(`redirects to ${url}, already crawled`);
    }
    if (!(await this.#robots.rulesFor(url)).isAllowed(url)) {
      throw new PageSkipped(`robots.txt disallows ${url}`);
    }
  }

  /** Writes state (plus `extra`) in order; the stored job that comes back may be cancelled. */
  #persist(extra: KnowledgeJobPatch = {}): Promise<void> {
    const patch = { ...this.#state.patch(), ...extra };
    const write = this.#writes.then(async () => {
      // Guarded: a worker that lost the job (another took it over and finished it) overwrites
      // no finished job's status or counts.
      const stored = await this.deps.jobs.update(this.#job.tenantId, this.#job.id, patch, {
        unlessFinished: true,
      });
      if (!stored) {
        // Deleted under us: nothing left to report progress to.
        this.#cancelled = true;
        return;
      }
      this.#job = stored;
      // Cancelled, or finished by another worker: nothing more to do here.
      if (FINISHED.has(stored.status)) this.#cancelled = true;
      this.deps.onProgress?.(stored);
    });
    this.#writes = write.catch(() => undefined);
    return write;
  }

  async #finish(refusal?: string): Promise<KnowledgeJob> {
    // Last look before overwriting the status: a cancel may have landed after our last write.
    const latest = await this.deps.jobs.get(this.#job.tenantId, this.#job.id);
    if (!latest || latest.status === 'cancelled') return latest ?? this.#job;
    // Success means the crawl produced knowledge: at least one page stored (or already stored).
    const { ingested, unchanged } = this.#state.progress;
    const succeeded = refusal === undefined && ingested + unchanged > 0;
    const error = succeeded
      ? null
      : (refusal ??
        this.#state.lastError ??
        'No page could be stored: every URL was skipped (robots.txt, off-site, not a document).');
    await this.#persist({
      status: succeeded ? 'completed' : 'failed',
      error,
      frontier: [],
      finishedAt: new Date().toISOString(),
    });
    return this.#job;
  }
}

/** A page that answered but cannot be used: counted as fetched and failed. */
class FetchedPageError extends PageError {}

/**
 * Crawls `job` from where its record says it stopped. Resolves with the stored job: completed or
 * failed, cancelled, or still running/queued after `deps.signal` aborted (resume it later with
 * another runCrawl). Rejects only when the store itself fails.
 */
export async function runCrawl(
  job: KnowledgeJob,
  deps: CrawlDeps,
  options: CrawlOptions = {},
): Promise<KnowledgeJob> {
  const latest = (await deps.jobs.get(job.tenantId, job.id)) ?? job;
  if (FINISHED.has(latest.status)) return latest;
  return new Crawler(latest, deps, options).run();
}
