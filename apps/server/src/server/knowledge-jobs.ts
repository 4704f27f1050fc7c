// Crawl jobs run as jobs of the job port (@tandem/jobs, queue "crawl"): in any process that
// serves the queue, one worker at a time per job. The store holds each job's frontier and
// counters after every page, so whichever worker runs the job next (after a crash of the one
// running it, a restart or a retry) carries on where the last write stopped, and writes from a
// worker that lost the job change no finished job (update's unlessFinished). Listeners get the
// job after every change in this process, for the SSE route and the admin page.
import { ErrorCode, KnowledgeJobView, type IndexLinkRequest } from '@tandem/contracts';
import {
  checkCrawlUrl,
  ingestCrawledPage,
  QuotaExceededError,
  runCrawl,
  type CrawlOptions,
  type KnowledgeIngestion,
  type PageOutcome,
} from '@tandem/knowledge/ingestion';
import {
  isJobQueueUnavailableError,
  PermanentJobError,
  type EventBus,
  type JobQueue,
  type JobState,
  type RunningJob,
} from '@tandem/jobs';
import type { KnowledgeJob, Store } from '@tandem/store';
import { HttpError } from './http-error';
import type { Logger } from '@tandem/observability';
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

/** The job queue crawls run on. */
export const CRAWL_QUEUE = 'crawl';
/** Jobs crawling at once in this process; more wait in the queue (status queued). */
const MAX_RUNNING_JOBS = 2;
/** A crawl whose store writes failed is tried again (from its stored frontier) this often. */
const CRAWL_ATTEMPTS = 3;
const CRAWL_BACKOFF_MS = 5_000;
/** How long a start waits for another start of the same tenant to finish counting. */
const START_WAIT_MS = 5_000;

/** Gets the job's view after every change, from whichever process runs it. */
export type JobListener = (job: KnowledgeJobView) => void;

/**
 * A knowledge job's channel on the event bus (tenant included, as every channel). Named `crawl`
 * since before upload jobs shared it; processes mid-deploy still hear each other.
 */
export const knowledgeJobChannel = (tenantId: string, jobId: string) =>
  `crawl:${tenantId}:${jobId}`;

export interface KnowledgeJobRunnerDeps {
  store: Pick<Store, 'knowledgeJobs' | 'knowledge' | 'idempotency'>;
  /** Where crawls are queued and run (the runtime's job queue). */
  queue: JobQueue;
  /** Where progress is published: every process's listeners hear every page (the runtime's bus). */
  events: Pick<EventBus, 'publish' | 'subscribe'>;
  ingestion: KnowledgeIngestion;
  crawl: Omit<CrawlOptions, 'allowedDomains' | 'fetch'>;
  /** Unfinished crawls one tenant may have (KNOWLEDGE_CRAWLS_PER_TENANT); 429 beyond. */
  crawlsPerTenant: number;
  log: Logger;
}

export const isFinished = (job: Pick<KnowledgeJob, 'status'>): boolean =>
  job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled';

/** A stored failure code as the contract's, when it is one. */
const failureCode = (code: string | null): ErrorCode | null => {
  const parsed = ErrorCode.safeParse(code);
  return parsed.success ? parsed.data : null;
};

export function jobView(job: KnowledgeJob): KnowledgeJobView {
  return {
    id: job.id,
    kind: job.kind,
    upload: job.upload && {
      fileName: job.upload.fileName,
      mimeType: job.upload.mimeType,
      sizeBytes: job.upload.sizeBytes,
      title: job.upload.title,
      sourceUrl: job.upload.sourceUrl,
      result: job.upload.result,
      failureCode: failureCode(job.upload.failureCode),
    },
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
  private serving = false;

  constructor(private readonly deps: KnowledgeJobRunnerDeps) {}

  /** Runs crawls in this process: the crawl queue's worker (at most MAX_RUNNING_JOBS at once). */
  serve(): void {
    if (this.serving) return;
    this.serving = true;
    this.deps.queue.work<Record<string, never>>(CRAWL_QUEUE, (job) => this.run(job), {
      concurrency: MAX_RUNNING_JOBS,
      onFailed: (job) => this.failed(job),
    });
  }

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
    try {
      await this.enqueue(job);
    } catch (error) {
      if (!isJobQueueUnavailableError(error)) throw error;
      // Nothing will run it: say so on the record (it no longer counts against the tenant's
      // cap) and tell the client to try again, instead of leaving a crawl queued forever.
      await this.deps.store.knowledgeJobs.update(tenantId, job.id, {
        status: 'failed',
        error: `It could not be queued: ${error.message}`,
        finishedAt: new Date().toISOString(),
      });
      throw new HttpError(
        'SERVICE_UNAVAILABLE',
        'The job queue is unavailable, so the crawl could not be started; try again shortly.',
        { headers: { 'retry-after': '30' } },
      );
    }
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
        kind: 'crawl',
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

  /**
   * Queues every queued or running crawl of the store (oldest first). Adding is idempotent, so
   * every process may do it at start: a job already queued, running elsewhere or finished is
   * left as it is; one a process left behind before crawls ran on the queue gets queued.
   */
  async resumeUnfinished(): Promise<number> {
    // Upload jobs have their own queue (knowledge-uploads.ts).
    const jobs = (await this.deps.store.knowledgeJobs.listUnfinished()).filter(
      (job) => job.kind === 'crawl',
    );
    try {
      for (const job of jobs) await this.enqueue(job);
    } catch (error) {
      if (!isJobQueueUnavailableError(error)) throw error;
      // A process must start without Redis (requests do not need it); the queue keeps its jobs,
      // and the next process start adds any it lacks.
      this.deps.log.warn('unfinished crawls not re-queued: the job queue is unavailable', {
        jobs: jobs.length,
        error,
      });
      return 0;
    }
    return jobs.length;
  }

  async cancel(tenantId: string, jobId: string): Promise<KnowledgeJob | null> {
    const job = await this.deps.store.knowledgeJobs.get(tenantId, jobId);
    if (!job || isFinished(job)) return job;
    const cancelled = await this.deps.store.knowledgeJobs.update(tenantId, jobId, {
      status: 'cancelled',
      finishedAt: new Date().toISOString(),
    });
    // A running crawl reads its status between pages and stops itself; a queued one ends at
    // its first look.
    if (cancelled) this.emit(cancelled);
    return cancelled;
  }

  /**
   * A failed crawl runs again from its stored frontier and counts (fresh attempts): the job is
   * queued again and returned. Null when it has not failed, or when its failure was not the
   * queue's (a crawl stopped by the tenant's quota: make room, then start a new one).
   */
  async retry(tenantId: string, jobId: string): Promise<KnowledgeJob | null> {
    const { store } = this.deps;
    const job = await store.knowledgeJobs.get(tenantId, jobId);
    if (!job || job.kind !== 'crawl' || job.status !== 'failed') return null;
    // The record first: a worker that takes the job at once must find it unfinished.
    const queued = await store.knowledgeJobs.update(tenantId, jobId, {
      status: 'queued',
      error: null,
      finishedAt: null,
    });
    if (!queued) return null;
    if (!(await this.requeue(job))) {
      await store.knowledgeJobs.update(
        tenantId,
        jobId,
        { status: 'failed', error: job.error, finishedAt: job.finishedAt },
        { unlessFinished: true },
      );
      return null;
    }
    this.emit(queued);
    return queued;
  }

  /**
   * Puts a failed crawl's job back on the queue: the queue's own retry when the job failed
   * there; a fresh add when the queue never got it (Redis did not answer when it was started).
   * False when the queue holds it as completed: the crawl ended itself (its tenant's quota).
   */
  private async requeue(job: KnowledgeJob): Promise<boolean> {
    const { queue } = this.deps;
    if (await queue.retry(job.tenantId, CRAWL_QUEUE, job.id)) return true;
    const state = await queue.state(job.tenantId, CRAWL_QUEUE, job.id);
    if (state === null) {
      await this.enqueue(job);
      return true;
    }
    // Waiting or running: it runs (again) on its own, and finds the crawl queued.
    return state.status === 'waiting' || state.status === 'active';
  }

  /** The job's changes as they happen, whichever process runs it, until unsubscribed. */
  subscribe(tenantId: string, jobId: string, listener: JobListener): () => void {
    return this.deps.events.subscribe(knowledgeJobChannel(tenantId, jobId), (data) => {
      // Another process (maybe another version of this code, mid-deploy) sent it: check it.
      const view = KnowledgeJobView.safeParse(data);
      if (view.success) listener(view.data);
      else this.deps.log.warn('crawl event dropped: not a job view', { jobId });
    });
  }

  /** Tells every process's listeners of the job (a crawl's or an upload's) its new state. */
  emit(job: KnowledgeJob): void {
    // The view, not the record: the record carries the frontier and every visited URL.
    this.deps.events
      .publish(knowledgeJobChannel(job.tenantId, job.id), jobView(job))
      .catch((error: unknown) =>
        this.deps.log.warn('crawl event not published', { jobId: job.id, error }),
      );
  }

  private enqueue(job: KnowledgeJob): Promise<void> {
    return this.deps.queue.add({
      queue: CRAWL_QUEUE,
      id: job.id,
      tenantId: job.tenantId,
      data: {},
      attempts: CRAWL_ATTEMPTS,
      backoffMs: CRAWL_BACKOFF_MS,
    });
  }

  /** Every attempt failed (the store kept failing, or the worker kept dying): say so. */
  private async failed(state: JobState): Promise<void> {
    const failed = await this.deps.store.knowledgeJobs.update(
      state.tenantId,
      state.id,
      {
        status: 'failed',
        error: `The crawl stopped ${state.attempts} times: ${state.error ?? 'unknown error'}`,
        finishedAt: new Date().toISOString(),
      },
      { unlessFinished: true },
    );
    if (failed) this.emit(failed);
  }

  private async run(running: RunningJob): Promise<void> {
    const { store, ingestion, log } = this.deps;
    const job = await store.knowledgeJobs.get(running.tenantId, running.id);
    if (job?.status === 'failed') {
      // Queued after its crawl was marked failed: an add that reached Redis after its deadline
      // had passed. Failing here (not completing) leaves the job retryable in the queue.
      throw new PermanentJobError(`The crawl had failed before it ran: ${job.error ?? ''}`);
    }
    if (!job || job.kind !== 'crawl' || isFinished(job)) return;
    // Stops between pages when the worker loses the job or the process closes.
    const controller = new AbortController();
    const stop = () => controller.abort();
    running.signal.addEventListener('abort', stop, { once: true });
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
        const failed = await store.knowledgeJobs.update(
          job.tenantId,
          job.id,
          { status: 'failed', error: quotaError, finishedAt: new Date().toISOString() },
          { unlessFinished: true },
        );
        if (failed) this.emit(failed);
        return;
      }
      this.emit(finished);
      if (isFinished(finished)) {
        log.info('crawl finished', {
          jobId: job.id,
          status: finished.status,
          ...finished.progress,
        });
      }
    } catch (error) {
      // The store failed under the crawl: the queue tries again from the stored frontier.
      log.error('crawl interrupted', { jobId: job.id, attempt: running.attempt, error });
      throw error;
    } finally {
      running.signal.removeEventListener('abort', stop);
    }
  }
}
