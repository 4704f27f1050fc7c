// Crawl jobs run in the server process, in the background of the request that started them.
// The store holds each job's frontier and counters after every page, so a restarted server
// picks its unfinished jobs up where they stopped (resumeUnfinished at start). Listeners get
// the job after every change, for the SSE route and the admin page.
import type { IndexLinkRequest, KnowledgeJobView } from '@tandem/contracts';
import {
  checkCrawlUrl,
  ingestCrawledPage,
  QuotaExceededError,
  runCrawl,
  type CrawlOptions,
  type KnowledgeIngestion,
  type PageOutcome,
} from '@tandem/knowledge/ingestion';
import type { KnowledgeJob, Store } from '@tandem/store';
import { HttpError } from './http-error';
import type { Logger } from './logger';
import { claimSlot, type HeldSlot, type SlotKind } from './tenant-slots';

const CRAWL_START: SlotKind = {
  name: 'crawl-start',
  setting: 'KNOWLEDGE_CRAWLS_PER_TENANT',
  what: 'crawls being started',
  retryAfterSeconds: 1,
};

/** Retries a claim that is refused while another start holds the lock, for START_WAIT_MS. */
async function waitForSlot(claim: () => Promise<HeldSlot>): Promise<HeldSlot> {
  const deadline = Date.now() + START_WAIT_MS;
  for (;;) {
    try {
      return await claim();
    } catch (error) {
      if (!(error instanceof HttpError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
    }
  }
}

/** Jobs crawling at once in this process; more wait in the queue (status queued). */
const MAX_RUNNING_JOBS = 2;
/** Of which one tenant's: the other is free for the next tenant's crawl (fair share). */
const MAX_RUNNING_PER_TENANT = 1;
/** How long a start waits for another start of the same tenant to finish counting. */
const START_WAIT_MS = 5_000;

export type JobListener = (job: KnowledgeJob) => void;

export interface KnowledgeJobRunnerDeps {
  store: Pick<Store, 'knowledgeJobs' | 'knowledge' | 'idempotency'>;
  ingestion: KnowledgeIngestion;
  crawl: Omit<CrawlOptions, 'allowedDomains' | 'fetch'>;
  /** Unfinished crawls one tenant may have (KNOWLEDGE_CRAWLS_PER_TENANT); 429 beyond. */
  crawlsPerTenant: number;
  log: Logger;
}

export const isFinished = (job: Pick<KnowledgeJob, 'status'>): boolean =>
  job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled';

export function jobView(job: KnowledgeJob): KnowledgeJobView {
  return {
    id: job.id,
    url: job.url,
    strategy: job.strategy,
    maxPages: job.maxPages,
    maxDepth: job.maxDepth,
    domain: job.domain,
    status: job.status,
    progress: job.progress,
    pending: job.frontier.length,
    errors: job.errors,
    error: job.error,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
  };
}

export class KnowledgeJobRunner {
  private readonly running = new Map<string, { tenantId: string; controller: AbortController }>();
  private readonly waiting: KnowledgeJob[] = [];
  private readonly listeners = new Map<string, Set<JobListener>>();
  private closed = false;

  constructor(private readonly deps: KnowledgeJobRunnerDeps) {}

  /** Checks the URL (scheme, allowed domains, private network), stores the job, queues it. */
  async start(
    tenantId: string,
    userId: string | null,
    request: Required<Omit<IndexLinkRequest, 'domain'>> & { domain?: string },
  ): Promise<KnowledgeJob> {
    const settings = await this.deps.store.knowledge.getSettings(tenantId);
    await checkCrawlUrl(request.url, {
      ...this.deps.crawl,
      allowedDomains: settings.allowedDomains,
    });
    const job = await this.createWithinCap(tenantId, () =>
      this.deps.store.knowledgeJobs.create(tenantId, {
        url: request.url,
        strategy: request.strategy,
        // One page is one page, whatever maxPages said.
        maxPages: request.strategy === 'single' ? 1 : request.maxPages,
        maxDepth: request.strategy === 'spider' ? request.maxDepth : 0,
        domain: request.domain ?? new URL(request.url).hostname.toLowerCase(),
        userId,
      }),
    );
    this.enqueue(job);
    return job;
  }

  /**
   * Creates the job unless the tenant has KNOWLEDGE_CRAWLS_PER_TENANT unfinished ones (429).
   * Starts of one tenant count one at a time (a lease in the store, shared by every process),
   * or a burst of requests would each count the others' jobs before any was written.
   */
  private async createWithinCap(
    tenantId: string,
    create: () => Promise<KnowledgeJob>,
  ): Promise<KnowledgeJob> {
    const { store, crawlsPerTenant } = this.deps;
    const lock = await waitForSlot(() => claimSlot(store.idempotency, tenantId, CRAWL_START, 1));
    try {
      const unfinished = await store.knowledgeJobs.list(tenantId, {
        status: ['queued', 'running'],
        limit: crawlsPerTenant,
      });
      if (unfinished.length >= crawlsPerTenant) {
        throw new HttpError(
          'CONCURRENCY_LIMITED',
          `This account already has ${unfinished.length} crawls queued or running, the most it ` +
            'may have at once (KNOWLEDGE_CRAWLS_PER_TENANT); try again when one is done.',
          { headers: { 'Retry-After': '30' } },
        );
      }
      return await create();
    } finally {
      await lock.release();
    }
  }

  /** Jobs a stopped server left queued or running, oldest first. */
  async resumeUnfinished(): Promise<number> {
    const jobs = await this.deps.store.knowledgeJobs.listUnfinished();
    for (const job of jobs) this.enqueue(job);
    return jobs.length;
  }

  async cancel(tenantId: string, jobId: string): Promise<KnowledgeJob | null> {
    const job = await this.deps.store.knowledgeJobs.get(tenantId, jobId);
    if (!job || isFinished(job)) return job;
    const cancelled = await this.deps.store.knowledgeJobs.update(tenantId, jobId, {
      status: 'cancelled',
      finishedAt: new Date().toISOString(),
    });
    const index = this.waiting.findIndex((j) => j.id === jobId);
    if (index >= 0) this.waiting.splice(index, 1);
    // A running crawl reads its status between pages and stops itself.
    if (cancelled) this.emit(cancelled);
    return cancelled;
  }

  subscribe(jobId: string, listener: JobListener): () => void {
    const set = this.listeners.get(jobId) ?? new Set<JobListener>();
    set.add(listener);
    this.listeners.set(jobId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(jobId);
    };
  }

  /** Stops every crawl between pages; their jobs stay unfinished and resume at next start. */
  close(): void {
    this.closed = true;
    for (const { controller } of this.running.values()) controller.abort();
    this.waiting.length = 0;
  }

  private emit(job: KnowledgeJob): void {
    for (const listener of this.listeners.get(job.id) ?? []) listener(job);
  }

  private enqueue(job: KnowledgeJob): void {
    if (this.closed || this.running.has(job.id) || this.waiting.some((j) => j.id === job.id)) {
      return;
    }
    this.waiting.push(job);
    this.pump();
  }

  /** The oldest waiting job whose tenant is below its share of the running crawls. */
  private nextJob(): KnowledgeJob | undefined {
    const perTenant = new Map<string, number>();
    for (const { tenantId } of this.running.values()) {
      perTenant.set(tenantId, (perTenant.get(tenantId) ?? 0) + 1);
    }
    const index = this.waiting.findIndex(
      (job) => (perTenant.get(job.tenantId) ?? 0) < MAX_RUNNING_PER_TENANT,
    );
    return index < 0 ? undefined : this.waiting.splice(index, 1)[0];
  }

  private pump(): void {
    while (!this.closed && this.running.size < MAX_RUNNING_JOBS) {
      const job = this.nextJob();
      if (!job) return;
      const controller = new AbortController();
      this.running.set(job.id, { tenantId: job.tenantId, controller });
      void this.run(job, controller).finally(() => {
        this.running.delete(job.id);
        this.pump();
      });
    }
  }

  private async run(job: KnowledgeJob, controller: AbortController): Promise<void> {
    const { store, ingestion, log } = this.deps;
    let quotaError: string | null = null;
    const onPage = async (page: Parameters<Parameters<typeof runCrawl>[1]['onPage']>[0]) => {
      try {
        const stored = await ingestCrawledPage(ingestion, {
          ...page,
          tenantId: job.tenantId,
          domain: job.domain,
          jobId: job.id,
        });
        const outcome: PageOutcome =
          stored === null ? 'skipped' : stored.unchanged ? 'unchanged' : 'ingested';
        return outcome;
      } catch (error) {
        if (error instanceof QuotaExceededError) {
          // Every further page would fail the same way: stop the crawl and say why.
          quotaError = error.message;
          controller.abort();
        }
        throw error;
      }
    };
    try {
      const settings = await store.knowledge.getSettings(job.tenantId);
      const finished = await runCrawl(
        job,
        {
          jobs: store.knowledgeJobs,
          onPage,
          onProgress: (next) => this.emit(next),
          signal: controller.signal,
        },
        { ...this.deps.crawl, allowedDomains: settings.allowedDomains },
      );
      if (quotaError !== null) {
        const failed = await store.knowledgeJobs.update(job.tenantId, job.id, {
          status: 'failed',
          error: quotaError,
          finishedAt: new Date().toISOString(),
        });
        if (failed) this.emit(failed);
        return;
      }
      this.emit(finished);
      log.info('crawl finished', { jobId: job.id, status: finished.status, ...finished.progress });
    } catch (error) {
      log.error('crawl failed', { jobId: job.id, error });
      const failed = await store.knowledgeJobs
        .update(job.tenantId, job.id, {
          status: 'failed',
          error: error instanceof Error ? error.message : String(error),
          finishedAt: new Date().toISOString(),
        })
        .catch(() => null);
      if (failed) this.emit(failed);
    }
  }
}
