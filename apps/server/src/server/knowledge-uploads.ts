// Knowledge file uploads (POST /api/knowledge/ingest) as jobs of the job port (queue "ingest"):
// the request stores the file in the store's uploads (every process, on any machine, reads it
// there) and a knowledge job of kind `upload` under the same id, queues the job and waits for
// its end. Whichever process serves the queue parses the file (in its parse pool) and stores
// the document; one worker at a time, and a worker that dies is replaced within a lease, the
// next attempt reading the stored file again.
//
// Outcomes, and what happens to the file:
// - completed: the job keeps the result (document id, chunk counts); the file is deleted;
// - the file itself is at fault (unreadable, unsupported, over a budget): failed at once, for
//   good, with the reason and the contract code the request answers with; the file is deleted,
//   since no retry can mend it;
// - the tenant's quota: failed at once with QUOTA_EXCEEDED, file kept: make room, then Retry;
// - anything else (the store, the office converter, a worker that died): retried with backoff,
//   then failed with the reason, file kept for the Retry button;
// - the sweep deletes the files of jobs that are gone or finished for good, and those of failed
//   jobs after UPLOAD_KEPT_MS.
// Writes go through `unlessFinished`: a worker that lost its job changes no finished one.
import { randomUUID } from 'node:crypto';
import type { IngestFormFields } from '@tandem/contracts';
import type { KnowledgeIngestion } from '@tandem/knowledge/ingestion';
import {
  isJobQueueUnavailableError,
  PermanentJobError,
  type JobQueue,
  type JobState,
  type RunningJob,
} from '@tandem/jobs';
import type { KnowledgeJob, KnowledgeUploadDetails, Store } from '@tandem/store';
import { documentUploadForgotten } from './document-uploads';
import { knowledgeErrors } from './knowledge-errors';
import { isFinished, type KnowledgeJobRunner } from './knowledge-jobs';
import type { Logger } from '@tandem/observability';
import {
  attemptsExhausted,
  isFileFault as isFileFaultCode,
  lastingFault,
  MAX_RUNNING_UPLOADS,
  notQueuedReason,
  queueUnavailable,
  requeue,
  UPLOAD_ATTEMPTS,
  UPLOAD_BACKOFF_MS,
  UPLOAD_KEPT_MS,
  waitForEnd,
} from './upload-jobs';

/** The job queue uploads are read on. */
export const INGEST_QUEUE = 'ingest';
/**
 * A file with no job is left this long before the sweep deletes it: the request that stored it
 * may still be creating the job.
 */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export interface UploadedFile {
  bytes: Uint8Array;
  name: string;
  /** The type the client declared; '' when none. */
  type: string;
}

export interface KnowledgeUploadRunnerDeps {
  /** `documents`: the sweep also covers document uploads (document-uploads.ts), same table. */
  store: Pick<Store, 'knowledgeJobs' | 'uploads' | 'documents'>;
  queue: JobQueue;
  /** Publishes and follows knowledge jobs' changes (their shared channel on the event bus). */
  jobs: Pick<KnowledgeJobRunner, 'emit' | 'subscribe'>;
  ingestion: KnowledgeIngestion;
  log: Logger;
  /** Tests: attempts per upload and the wait before the second. */
  attempts?: number;
  backoffMs?: number;
}

const isFileFault = (job: KnowledgeJob): boolean => isFileFaultCode(job.upload?.failureCode);

export class KnowledgeUploadRunner {
  private serving = false;
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: KnowledgeUploadRunnerDeps) {}

  /** Reads uploads in this process (the ingest queue's worker), and sweeps forgotten files. */
  serve(): void {
    if (this.serving) return;
    this.serving = true;
    this.deps.queue.work<Record<string, never>>(INGEST_QUEUE, (job) => this.run(job), {
      concurrency: MAX_RUNNING_UPLOADS,
      onFailed: (job) => this.failed(job),
    });
    const sweep = () =>
      void this.sweep().catch((error: unknown) =>
        this.deps.log.warn('upload sweep failed', { error }),
      );
    sweep();
    this.sweeper = setInterval(sweep, SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  /** Stops the sweep (the queue's close stops the worker). */
  close(): void {
    clearInterval(this.sweeper);
  }

  /** Stores the file and its job, and queues the job; 503 when the queue does not answer. */
  async start(
    tenantId: string,
    userId: string | null,
    file: UploadedFile,
    fields: IngestFormFields,
  ): Promise<KnowledgeJob> {
    const { store } = this.deps;
    const id = randomUUID();
    const fileName = file.name || 'upload';
    const mimeType = file.type || null;
    await store.uploads.put(tenantId, { id, fileName, mimeType, bytes: file.bytes });
    let job: KnowledgeJob;
    try {
      job = await store.knowledgeJobs.create(tenantId, {
        id,
        kind: 'upload',
        userId,
        url: fields.sourceUrl ?? '',
        strategy: 'single',
        maxPages: 1,
        maxDepth: 0,
        // A file from a site is that site's knowledge; anything else applies tenant-wide.
        domain: fields.domain ?? (fields.sourceUrl ? new URL(fields.sourceUrl).hostname : ''),
        upload: {
          fileName,
          mimeType,
          sizeBytes: file.bytes.byteLength,
          title: fields.title ?? null,
          sourceUrl: fields.sourceUrl ?? null,
          result: null,
          failureCode: null,
        },
      });
    } catch (error) {
      await store.uploads.delete(tenantId, id).catch(() => false);
      throw error;
    }
    try {
      await this.enqueue(job);
    } catch (error) {
      // Nothing will read it: say so on the record and drop the file, rather than keep both.
      await this.finish(job, {
        status: 'failed',
        error: notQueuedReason(error),
        failureCode: 'SERVICE_UNAVAILABLE',
        keepFile: false,
      });
      throw queueUnavailable();
    }
    return job;
  }

  /** The job once it has ended, or as it is after `ms` (waitForEnd). */
  wait(tenantId: string, jobId: string, ms: number): Promise<KnowledgeJob | null> {
    return waitForEnd({
      read: () => this.deps.store.knowledgeJobs.get(tenantId, jobId),
      ended: isFinished,
      subscribe: (wake) =>
        this.deps.jobs.subscribe(tenantId, jobId, (view) => {
          if (view.status !== 'queued' && view.status !== 'running') wake();
        }),
      ms,
    });
  }

  /**
   * Queues every unfinished upload job of the store (each process may at start: adding is
   * idempotent), like the crawls' resumeUnfinished.
   */
  async resumeUnfinished(): Promise<number> {
    const jobs = (await this.deps.store.knowledgeJobs.listUnfinished()).filter(
      (job) => job.kind === 'upload',
    );
    try {
      for (const job of jobs) await this.enqueue(job);
    } catch (error) {
      if (!isJobQueueUnavailableError(error)) throw error;
      this.deps.log.warn('unfinished uploads not re-queued: the job queue is unavailable', {
        jobs: jobs.length,
        error,
      });
      return 0;
    }
    return jobs.length;
  }

  /**
   * A failed upload is read again from its stored file, with fresh attempts: returned queued.
   * Null when it has not failed, when the file was at fault, or when the file is gone.
   */
  async retry(tenantId: string, jobId: string): Promise<KnowledgeJob | null> {
    const { store, queue } = this.deps;
    const job = await store.knowledgeJobs.get(tenantId, jobId);
    if (!job || job.kind !== 'upload' || !job.upload || job.status !== 'failed') return null;
    if (isFileFault(job) || !(await store.uploads.get(tenantId, jobId))) return null;
    // The record first: a worker that takes the job at once must find it unfinished.
    const queued = await store.knowledgeJobs.update(tenantId, jobId, {
      status: 'queued',
      error: null,
      finishedAt: null,
      upload: { ...job.upload, failureCode: null },
    });
    if (!queued) return null;
    if (!(await requeue(queue, INGEST_QUEUE, tenantId, jobId, () => this.enqueue(job)))) {
      await store.knowledgeJobs.update(
        tenantId,
        jobId,
        { status: 'failed', error: job.error, finishedAt: job.finishedAt, upload: job.upload },
        { unlessFinished: true },
      );
      return null;
    }
    this.deps.jobs.emit(queued);
    return queued;
  }

  /**
   * Deletes the files no job will read: their job is gone (after ORPHAN_GRACE_MS), completed,
   * cancelled, failed with the file at fault, or failed more than UPLOAD_KEPT_MS ago. The same
   * table holds document uploads, whose document decides (documentUploadForgotten). Returns how
   * many it deleted.
   */
  async sweep(now = Date.now()): Promise<number> {
    const { store } = this.deps;
    const candidates = await store.uploads.listCreatedBefore(
      new Date(now - ORPHAN_GRACE_MS).toISOString(),
      500,
    );
    let deleted = 0;
    for (const upload of candidates) {
      const job = await store.knowledgeJobs.get(upload.tenantId, upload.id);
      // No knowledge job: the file may be a document's, kept while its job may read it.
      const document = job ? null : await store.documents.get(upload.tenantId, upload.id);
      const forgotten = document
        ? documentUploadForgotten(document, upload.createdAt, now)
        : !job ||
          job.status === 'completed' ||
          job.status === 'cancelled' ||
          (job.status === 'failed' &&
            (isFileFault(job) ||
              Date.parse(job.finishedAt ?? job.updatedAt) < now - UPLOAD_KEPT_MS));
      if (forgotten && (await store.uploads.delete(upload.tenantId, upload.id))) deleted += 1;
    }
    return deleted;
  }

  private enqueue(job: KnowledgeJob): Promise<void> {
    return this.deps.queue.add({
      queue: INGEST_QUEUE,
      id: job.id,
      tenantId: job.tenantId,
      data: {},
      attempts: this.deps.attempts ?? UPLOAD_ATTEMPTS,
      backoffMs: this.deps.backoffMs ?? UPLOAD_BACKOFF_MS,
    });
  }

  /**
   * Ends the job (unless it already ended), deletes its file unless kept for a retry, tells
   * every listener. Returns the job as stored: a finished one as it was.
   */
  private async finish(
    job: KnowledgeJob,
    end:
      | { status: 'completed'; result: NonNullable<KnowledgeUploadDetails['result']> }
      | { status: 'failed'; error: string; failureCode: string; keepFile: boolean },
  ): Promise<KnowledgeJob | null> {
    const { store } = this.deps;
    const upload = job.upload as KnowledgeUploadDetails;
    const ended = await store.knowledgeJobs.update(
      job.tenantId,
      job.id,
      end.status === 'completed'
        ? {
            status: 'completed',
            finishedAt: new Date().toISOString(),
            progress: {
              discovered: 1,
              fetched: 1,
              ingested: end.result.unchanged ? 0 : 1,
              unchanged: end.result.unchanged ? 1 : 0,
              skipped: 0,
              failed: 0,
            },
            upload: { ...upload, result: end.result, failureCode: null },
          }
        : {
            status: 'failed',
            finishedAt: new Date().toISOString(),
            error: end.error,
            progress: { ...job.progress, fetched: 1, failed: 1 },
            upload: { ...upload, failureCode: end.failureCode },
          },
      { unlessFinished: true },
    );
    // Whoever ended it, a job that completed (or whose file was at fault) needs its file no more.
    if (
      ended &&
      (ended.status === 'completed' || ended.status === 'cancelled' || isFileFault(ended))
    ) {
      await store.uploads.delete(job.tenantId, job.id);
    } else if (ended?.status === 'failed' && end.status === 'failed' && !end.keepFile) {
      await store.uploads.delete(job.tenantId, job.id);
    }
    if (ended) this.deps.jobs.emit(ended);
    return ended;
  }

  /** One attempt: read the stored file into knowledge. */
  private async run(running: RunningJob): Promise<void> {
    const { store, ingestion, log } = this.deps;
    const job = await store.knowledgeJobs.get(running.tenantId, running.id);
    if (job?.status === 'failed' && job.kind === 'upload') {
      // Queued again after it was marked failed (an add that reached Redis late): failing here
      // leaves the job retryable in the queue, as the crawls do.
      throw new PermanentJobError(`The upload had failed before it ran: ${job.error ?? ''}`);
    }
    if (!job || job.kind !== 'upload' || !job.upload) return;
    if (isFinished(job)) {
      // Cancelled while it waited (or completed by a worker that lost the job since).
      if (job.status !== 'failed') await store.uploads.delete(job.tenantId, job.id);
      return;
    }
    const file = await store.uploads.get(job.tenantId, job.id);
    if (!file) {
      await this.finish(job, {
        status: 'failed',
        error: 'The uploaded file is no longer stored; upload it again.',
        failureCode: 'NOT_FOUND',
        keepFile: false,
      });
      return;
    }
    const started = await store.knowledgeJobs.update(
      job.tenantId,
      job.id,
      { status: 'running', startedAt: job.startedAt ?? new Date().toISOString() },
      { unlessFinished: true },
    );
    if (!started || isFinished(started)) return;
    this.deps.jobs.emit(started);
    const { upload } = job;
    let stored;
    try {
      stored = await knowledgeErrors(() =>
        ingestion.ingestFile({
          tenantId: job.tenantId,
          bytes: file.bytes,
          // Read from the store for this attempt alone: the parse pool may take it over.
          handOver: true,
          fileName: upload.fileName,
          ...(upload.mimeType ? { mimeType: upload.mimeType } : {}),
          domain: job.domain,
          ...(upload.title ? { title: upload.title } : {}),
          ...(upload.sourceUrl ? { sourceUrl: upload.sourceUrl } : {}),
        }),
      );
    } catch (error) {
      const fault = lastingFault(error);
      if (fault) {
        // The tenant's quota is no fault of the file: make room, then Retry reads it.
        await this.finish(started, {
          status: 'failed',
          error: fault.message,
          failureCode: fault.code,
          keepFile: fault.code === 'QUOTA_EXCEEDED',
        });
        log.info('upload refused', { jobId: job.id, code: fault.code });
        throw new PermanentJobError(fault.message);
      }
      log.error('upload interrupted', { jobId: job.id, attempt: running.attempt, error });
      throw error;
    }
    const ended = await this.finish(started, {
      status: 'completed',
      result: {
        documentId: stored.document.id,
        chunksAdded: stored.chunksAdded,
        chunksSuperseded: stored.chunksSuperseded,
        unchanged: stored.unchanged,
        embedded: stored.embedded,
      },
    });
    log.info('upload ingested', { jobId: job.id, status: ended?.status, attempt: running.attempt });
  }

  /** Every attempt failed (the store kept failing, or the worker kept dying): say so. */
  private async failed(state: JobState): Promise<void> {
    const job = await this.deps.store.knowledgeJobs.get(state.tenantId, state.id);
    // Refused for good by an attempt, which said why (or finished otherwise): nothing to add.
    if (!job || isFinished(job)) return;
    await this.finish(job, {
      status: 'failed',
      error: attemptsExhausted(state),
      failureCode: 'SERVICE_UNAVAILABLE',
      keepFile: true,
    });
  }
}
