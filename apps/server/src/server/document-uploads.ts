// Document uploads (POST /api/documents) as jobs of the job port (queue "document-upload"), as
// knowledge uploads are (knowledge-uploads.ts): the request stores the file in the store's
// uploads and the document itself as `processing` with no pages, under one id, queues the job
// and waits for its end. The document's own record is the job's record: there is no second
// one to keep in step, and every reader (lists, extractions, stacks) sees where it is.
// Whichever process serves the queue reads the file (in its parse pool) and makes the document
// `ready`; one worker at a time, and a worker that dies is replaced within a lease, the next
// attempt reading the stored file again.
//
// Outcomes, and what happens to the file:
// - ready: the text is stored, the file deleted;
// - the file itself is at fault (empty, unreadable, unsupported, over a budget): failed at once,
//   for good, with the reason and the contract code the request answers with; file deleted;
// - anything else (the store, the office converter, a worker that died): retried with backoff,
//   then failed with the reason, file kept UPLOAD_KEPT_MS for the Retry button; so is a
//   document whose job the queue (Redis) refused.
// The store only moves a document out of `processing` once (markReady/markFailed are
// conditional), so a worker that lost its job changes no finished document. The knowledge
// upload sweep also deletes the files of finished documents (documentUploadForgotten).
import { randomUUID } from 'node:crypto';
import type { Caller, DocumentAgentService, UploadedFile } from '@tandem/documents';
import {
  PermanentJobError,
  type EventBus,
  type JobQueue,
  type JobState,
  type RunningJob,
} from '@tandem/jobs';
import type { DocumentRecord, DocumentSummary, Store } from '@tandem/store';
import { knowledgeErrors } from './knowledge-errors';
import type { Logger } from '@tandem/observability';
import {
  attemptsExhausted,
  isFileFault,
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

/** The job queue document uploads are read on. */
export const DOCUMENT_UPLOAD_QUEUE = 'document-upload';
/** A processing document's job is looked for after this long (its request may still queue it). */
const LOST_GRACE_MS = 60 * 60 * 1000;
const REQUEUE_EVERY_MS = 60 * 60 * 1000;

/** A failed document a retry may read again (its file permitting). */
export const isRetryable = (document: Pick<DocumentSummary, 'status' | 'failureCode'>) =>
  document.status === 'failed' && !isFileFault(document.failureCode);

/** Where a document's changes are published, for whoever waits for it on any process. */
export const documentChannel = (tenantId: string, documentId: string) =>
  `document:${tenantId}:${documentId}`;

/**
 * Whether the sweep may delete an upload that belongs to this document: read, failed for good,
 * or failed and kept long enough (counted from the upload: a document records no finish time).
 */
export function documentUploadForgotten(
  document: DocumentSummary,
  uploadCreatedAt: string,
  now: number,
): boolean {
  if (document.status === 'ready') return true;
  if (document.status !== 'failed') return false;
  return !isRetryable(document) || Date.parse(uploadCreatedAt) < now - UPLOAD_KEPT_MS;
}

export interface DocumentUploadRunnerDeps {
  store: Pick<Store, 'documents' | 'uploads'>;
  queue: JobQueue;
  events: Pick<EventBus, 'publish' | 'subscribe'>;
  /** Reads a file into pages (type detection, OCR, the office converter, in the parse pool). */
  documents: Pick<DocumentAgentService, 'readUpload'>;
  log: Logger;
  /** Tests: attempts per upload and the wait before the second. */
  attempts?: number;
  backoffMs?: number;
}

export class DocumentUploadRunner {
  private serving = false;
  private requeuer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: DocumentUploadRunnerDeps) {}

  /**
   * Reads uploads in this process (the document-upload queue's worker), and queues again every
   * hour the documents whose job was lost.
   */
  serve(): void {
    if (this.serving) return;
    this.serving = true;
    this.deps.queue.work<Record<string, never>>(DOCUMENT_UPLOAD_QUEUE, (job) => this.run(job), {
      concurrency: MAX_RUNNING_UPLOADS,
      onFailed: (job) => this.failed(job),
    });
    const requeue = () =>
      void this.requeueLost().catch((error: unknown) =>
        this.deps.log.warn('document upload requeue failed', { error }),
      );
    requeue();
    this.requeuer = setInterval(requeue, REQUEUE_EVERY_MS);
    this.requeuer.unref();
  }

  /** Stops the hourly requeue (the queue's close stops the worker). */
  close(): void {
    clearInterval(this.requeuer);
  }

  /**
   * Queues the `processing` documents the queue does not know (their process died between
   * storing the document and queuing its job, or Redis lost it): found through their files,
   * which every such document has. Adding is idempotent, so several processes may do it at
   * once. Returns how many it queued.
   */
  async requeueLost(now = Date.now()): Promise<number> {
    const { store, queue } = this.deps;
    const files = await store.uploads.listCreatedBefore(
      new Date(now - LOST_GRACE_MS).toISOString(),
      500,
    );
    let queued = 0;
    for (const file of files) {
      const document = await store.documents.get(file.tenantId, file.id);
      if (document?.status !== 'processing') continue;
      if ((await queue.state(file.tenantId, DOCUMENT_UPLOAD_QUEUE, file.id)) !== null) continue;
      await this.enqueue(document);
      queued += 1;
    }
    if (queued > 0) this.deps.log.info('document uploads queued again', { documents: queued });
    return queued;
  }

  /**
   * Stores the file and the document (`processing`, no pages) and queues its reading; 503 when
   * the queue does not answer.
   */
  async start(caller: Caller, file: UploadedFile): Promise<DocumentRecord> {
    const { store } = this.deps;
    const id = randomUUID();
    const fileName = file.fileName || 'upload';
    await store.uploads.put(caller.tenantId, {
      id,
      fileName,
      mimeType: file.mimeType ?? null,
      bytes: file.bytes,
    });
    let document: DocumentRecord;
    try {
      document = await store.documents.create(caller.tenantId, {
        id,
        userId: caller.userId,
        fileName,
        // Until it is read: the reader detects the type and finds the title.
        title: fileName,
        mimeType: file.mimeType ?? 'application/octet-stream',
        sizeBytes: file.bytes.byteLength,
        pages: [],
        status: 'processing',
      });
    } catch (error) {
      await store.uploads.delete(caller.tenantId, id).catch(() => false);
      throw error;
    }
    try {
      await this.enqueue(document);
    } catch (error) {
      // Nothing will read it now: say so on the document. The file is kept, so that Retry can
      // queue it once the queue answers (retry adds a job the queue never got).
      await this.fail(document, notQueuedReason(error), 'SERVICE_UNAVAILABLE');
      throw queueUnavailable();
    }
    return document;
  }

  /** The document once it is no longer `processing`, or as it is after `ms` (waitForEnd). */
  wait(tenantId: string, documentId: string, ms: number): Promise<DocumentRecord | null> {
    return waitForEnd({
      read: () => this.deps.store.documents.get(tenantId, documentId),
      ended: (document) => document.status !== 'processing',
      subscribe: (wake) => this.deps.events.subscribe(documentChannel(tenantId, documentId), wake),
      ms,
    });
  }

  /**
   * A failed document is read again from its stored file, with fresh attempts: returned
   * `processing`. Null when it is not the caller's, has not failed, failed because of the file,
   * or its file is gone.
   */
  async retry(caller: Caller, documentId: string): Promise<DocumentRecord | null> {
    const { store, queue } = this.deps;
    const { tenantId } = caller;
    const document = await store.documents.get(tenantId, documentId, { userId: caller.userId });
    if (!document || !isRetryable(document)) return null;
    if (!(await store.uploads.get(tenantId, documentId))) return null;
    // The record first: a worker that takes the job at once must find it processing.
    const reopened = await store.documents.reopen(tenantId, documentId);
    if (!reopened) return null;
    const enqueue = () => this.enqueue(reopened);
    if (!(await requeue(queue, DOCUMENT_UPLOAD_QUEUE, tenantId, documentId, enqueue))) {
      await store.documents.markFailed(tenantId, documentId, {
        error: document.error ?? 'It could not be queued again.',
        failureCode: document.failureCode ?? 'SERVICE_UNAVAILABLE',
      });
      return null;
    }
    this.emit(reopened);
    return reopened;
  }

  private enqueue(document: DocumentSummary): Promise<void> {
    return this.deps.queue.add({
      queue: DOCUMENT_UPLOAD_QUEUE,
      id: document.id,
      tenantId: document.tenantId,
      data: {},
      attempts: this.deps.attempts ?? UPLOAD_ATTEMPTS,
      backoffMs: this.deps.backoffMs ?? UPLOAD_BACKOFF_MS,
    });
  }

  /**
   * Tells every waiting request, on any process, that the document changed: its id and status
   * only, as a wake-up (a waiter reads the record itself).
   */
  private emit(document: DocumentSummary): void {
    this.deps.events
      .publish(documentChannel(document.tenantId, document.id), {
        id: document.id,
        status: document.status,
      })
      .catch((error: unknown) =>
        this.deps.log.warn('document event not published', { documentId: document.id, error }),
      );
  }

  /** Fails a `processing` document (a finished one stays as it is) and says so. */
  private async fail(
    document: DocumentSummary,
    error: string,
    failureCode: string,
  ): Promise<DocumentRecord | null> {
    const failed = await this.deps.store.documents.markFailed(document.tenantId, document.id, {
      error,
      failureCode,
    });
    if (failed) this.emit(failed);
    return failed;
  }

  /** One attempt: read the stored file into the document's pages. */
  private async run(running: RunningJob): Promise<void> {
    const { store, documents, log } = this.deps;
    const { tenantId, id } = running;
    const document = await store.documents.get(tenantId, id);
    if (!document) {
      // Deleted while it waited: its file has no reader left.
      await store.uploads.delete(tenantId, id);
      return;
    }
    if (document.status === 'failed') {
      // Queued again after it was marked failed (an add that reached Redis late): failing here
      // leaves the job retryable in the queue, as the knowledge uploads do.
      throw new PermanentJobError(
        `The document had failed before it was read: ${document.error ?? ''}`,
      );
    }
    if (document.status === 'ready') {
      // Read by a worker that lost the job since: only its file is left to drop.
      await store.uploads.delete(tenantId, id);
      return;
    }
    const file = await store.uploads.get(tenantId, id);
    if (!file) {
      await this.fail(
        document,
        'The uploaded file is no longer stored; upload it again.',
        'NOT_FOUND',
      );
      return;
    }
    let read;
    try {
      read = await knowledgeErrors(() =>
        documents.readUpload(
          { tenantId, userId: document.userId },
          {
            bytes: file.bytes,
            // Read from the store for this attempt alone: the parse pool may take it over.
            handOver: true,
            fileName: document.fileName,
            ...(file.mimeType ? { mimeType: file.mimeType } : {}),
          },
        ),
      );
    } catch (error) {
      const fault = lastingFault(error);
      if (fault) {
        await this.fail(document, fault.message, fault.code);
        await store.uploads.delete(tenantId, id);
        log.info('document upload refused', { documentId: id, code: fault.code });
        throw new PermanentJobError(fault.message);
      }
      log.error('document upload interrupted', { documentId: id, attempt: running.attempt, error });
      throw error;
    }
    const ready = await store.documents.markReady(tenantId, id, read);
    // Whoever finished it, a document that is no longer processing needs its file no more,
    // unless it failed in a way a retry mends (then `fail` kept it).
    const now = ready ?? (await store.documents.get(tenantId, id));
    if (!now || now.status === 'ready' || !isRetryable(now))
      await store.uploads.delete(tenantId, id);
    if (ready) this.emit(ready);
    log.info('document upload read', {
      documentId: id,
      read: ready !== null,
      attempt: running.attempt,
    });
  }

  /** Every attempt failed (the store kept failing, or the worker kept dying): say so. */
  private async failed(state: JobState): Promise<void> {
    const document = await this.deps.store.documents.get(state.tenantId, state.id);
    // Refused for good by an attempt, which said why (or read since): nothing to add.
    if (document?.status !== 'processing') return;
    await this.fail(document, attemptsExhausted(state), 'SERVICE_UNAVAILABLE');
  }
}
