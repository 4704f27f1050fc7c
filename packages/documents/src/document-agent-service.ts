// Document extraction (the document-extraction agent spec in docs/specs.md): upload a document, run
// the extraction agent on it, correct it in plain words, build a table from several documents. Each
// run is one LangGraph tool-calling loop over tools bound to the caller (tenant, user) and its
// records; it streams the spec's flat events, is one LangFuse trace, bills its model calls as
// DOCUMENT_EXTRACTION / STACK_EXTRACTION (through the LLM port's usage hook), and adds their cost
// to the record.
//
// Runs go on without their reader: a client that disconnects does not stop a run halfway, and
// its result is in the store when the run ends. On the server, extraction, correction and stack
// runs are jobs of the job queue (the server's document-runs.ts and stack-runs.ts queue them,
// runJob and runStackJob are their bodies), so a run whose process dies is taken over by
// another; startExtraction, startCorrection and startStack run in the calling process (this
// package's tests, and callers without a queue). Refusals (unknown document, bad schema, no
// model, a run already going) are thrown before anything starts, as DocumentErrors.
import {
  DOCUMENT_LIMITS,
  type ExtractionStreamEvent,
  type StackColumn,
  type StackStreamEvent,
} from '@tandem/contracts';
import {
  createDocumentTools,
  createStackTools,
  continueRequest,
  correctionRequest,
  DOCUMENT_EXTRACTION_SYSTEM,
  extractionRequest,
  STACK_EXTRACTION_SYSTEM,
  stackRequest,
} from './tools';
import { unsupportedFeatures } from '@tandem/extraction';
import {
  microUsdToUsd,
  priceUsage,
  type Tracing,
  silentLogger,
  type Logger,
} from '@tandem/observability';
import type { DocumentExtraction, DocumentRecord, Stack, Store } from '@tandem/store';

import { LlmNotConfiguredError, type LlmClient, type LlmUsage } from '@tandem/llm';
import { DocumentError } from './document-error';
import { driveRun, type RunEvent, type RunOutcome } from './agent-run';
import { EventChannel } from './event-channel';
import { adoptRunLock, claimRunLock, releaseRunLock, type HeldLock } from './run-lock';
import {
  extractionChannel,
  followExtraction,
  runBusMessage,
  runInProgress,
  type RunEventBus,
  type RunStreamItem,
} from './run-events';
import {
  followStack,
  stackBusMessage,
  stackChannel,
  stackLockSubject,
  stackRunInProgress,
} from './stack-events';

/** What the knowledge extractors read from a file (ingestion's readFile). */
export interface ReadDocument {
  (file: {
    tenantId: string;
    bytes: Uint8Array;
    fileName: string;
    mimeType?: string;
    handOver?: boolean;
  }): Promise<{
    title: string;
    markdown: string;
    pages?: { number: number; text: string }[];
    mimeType: string;
    warnings: string[];
  }>;
}

export interface DocumentAgentDeps {
  store: Store;
  llm: LlmClient;
  /** Reads uploads (OCR included); without it, uploads are refused. */
  readDocument?: ReadDocument;
  tracing?: Tracing;
  log?: Logger;
  /** Model turns per run. Default 24. */
  maxTurns?: number;
  /** Characters of document text per get_document_text call (tests use less). */
  textBudget?: number;
  /** Micro-USD of one model call; the central pricing table by default. */
  price?: (model: string, usage: LlmUsage) => number;
  /** The lease of a run's lock (tests). */
  lockLeaseMs?: number;
  /** Where runs publish their events for followers on any process (the runtime's event bus). */
  events?: RunEventBus;
}

/** Who is asking: every record the services touch is scoped to this tenant and user. */
export interface Caller {
  tenantId: string;
  userId: string;
}

export interface UploadedFile {
  bytes: Uint8Array;
  fileName: string;
  mimeType?: string;
  /** The bytes are the service's to give up (see the knowledge parsers' DocumentInput). */
  handOver?: boolean;
}

/** A file's text as read, what a document record keeps of it. */
export type DocumentRead = Pick<DocumentRecord, 'title' | 'mimeType' | 'pages' | 'warnings'>;

export interface Run<R, E> {
  record: R;
  /** The run's events; the last one is `complete`. */
  events: AsyncIterable<E>;
  /** Settles when the run has ended and its outcome is stored. Never rejects. */
  done: Promise<void>;
}

/**
 * A document run as a job carries it: the server queues it, any process serving the queue runs
 * it (runJob), a later attempt after a takeover included. JSON, as the queue stores it.
 */
/** A new extraction: of a document uploaded before, or of one uploaded with it. */
export interface NewExtractionInput {
  documentId?: string;
  upload?: UploadedFile;
  schema?: Record<string, unknown>;
  instructions?: string;
}

export interface DocumentRunJob {
  /** The run's id (the job's): it owns the extraction's run lock while the run lasts. */
  runId: string;
  tenantId: string;
  userId: string;
  extractionId: string;
  kind: 'extract' | 'correct';
  /** The correction's words (kind `correct`). */
  message?: string;
  /** Start from what earlier runs saved (a retry of a failed extraction). */
  resume?: boolean;
}

/** A new stack: the caller's documents, in table order, and optionally its columns. */
export interface NewStackInput {
  name?: string;
  documentIds: string[];
  columns?: StackColumn[];
  instructions?: string;
}

/** A stack run as a job carries it (JSON, as the queue stores it); see DocumentRunJob. */
export interface StackRunJob {
  /** The run's id (the job's): it owns the stack's run lock while the run lasts. */
  runId: string;
  tenantId: string;
  userId: string;
  stackId: string;
}

/** One stack run's inputs (in the caller's process, or a job's attempt). */
interface StackRunInput {
  caller: Caller;
  stack: Stack;
  send: (event: StackStreamEvent) => void;
  signal?: AbortSignal;
  failureIsFinal: boolean;
  beforeComplete?: () => Promise<void>;
  /**
   * The documents whose rows an earlier attempt saved: kept as they are (extract_row refuses
   * them), so the agent extracts only the documents without one.
   */
  keptRows: readonly string[];
}

export interface JobAttempt {
  /** 1 for the first attempt (a takeover counts one; a run handed back on close does not). */
  number: number;
  /** Aborted when the worker must stop (it lost the job, or its process is closing). */
  signal: AbortSignal;
  /** Called when the run has ended, right before its `complete` is published. */
  beforeComplete?: () => Promise<void>;
}

/** How one attempt of a job's run ended. */
export type JobRunEnd =
  /** The run ended and its outcome is stored; its `complete` was published. */
  | { end: 'finished' }
  /** The signal stopped it: the next attempt carries on from what was stored. */
  | { end: 'stopped' }
  /** The model failed under it: the queue may try again (`failure` says why). */
  | { end: 'failed'; failure: string }
  /** Another run holds the extraction now (or it is gone): this one did nothing. */
  | { end: 'superseded' };

/** One extraction run's inputs (a first run, a correction, a job's attempt). */
interface ExtractionRunInput {
  caller: Caller;
  extraction: DocumentExtraction;
  document: DocumentRecord;
  prompt: string;
  kind: 'extract' | 'correct';
  /** `id`: a write's history seq, the SSE id a client resumes from. */
  send: (event: ExtractionStreamEvent, id?: number) => void;
  signal?: AbortSignal;
  failureIsFinal: boolean;
  beforeComplete?: () => Promise<void>;
}

export const DEFAULT_MAX_TURNS = 24;

const USD = (microUsd: number) => microUsdToUsd(microUsd);

export class DocumentAgentService {
  private readonly log: Logger;
  private readonly maxTurns: number;
  private readonly price: (model: string, usage: LlmUsage) => number;

  constructor(private readonly deps: DocumentAgentDeps) {
    this.log = (deps.log ?? silentLogger).child({ component: 'document-agent' });
    this.maxTurns = deps.maxTurns ?? DEFAULT_MAX_TURNS;
    this.price = deps.price ?? ((model, usage) => priceUsage(model, usage));
  }

  /** Reads a file's text (OCR for scans) and keeps it as the caller's document. */
  async uploadDocument(caller: Caller, file: UploadedFile): Promise<DocumentRecord> {
    // Read before the bytes may be handed over to the parse pool.
    const sizeBytes = file.bytes.byteLength;
    const read = await this.readUpload(caller, file);
    return this.deps.store.documents.create(caller.tenantId, {
      userId: caller.userId,
      fileName: file.fileName,
      sizeBytes,
      ...read,
    });
  }

  /**
   * Reads a file into a document's text, page by page, without storing it: the upload job
   * (which stores the document as `processing` first) and uploadDocument share it.
   */
  async readUpload(caller: Caller, file: UploadedFile): Promise<DocumentRead> {
    const read = this.deps.readDocument;
    if (!read) throw new DocumentError('SERVICE_UNAVAILABLE', 'This server cannot read uploads.');
    if (file.bytes.byteLength === 0) {
      throw new DocumentError('BAD_REQUEST', `${file.fileName || 'The file'} is empty.`);
    }
    if (file.bytes.byteLength > DOCUMENT_LIMITS.uploadBytes) {
      throw new DocumentError(
        'PAYLOAD_TOO_LARGE',
        `${file.fileName} is larger than ${DOCUMENT_LIMITS.uploadBytes / 1024 / 1024} MB, the upload limit.`,
      );
    }
    const extracted = await read({ ...file, tenantId: caller.tenantId });
    const pages =
      extracted.pages && extracted.pages.length > 0
        ? extracted.pages
        : [{ number: 1, text: extracted.markdown }];
    return {
      title: extracted.title,
      mimeType: extracted.mimeType,
      pages,
      warnings: extracted.warnings,
    };
  }

  /** A new extraction of a document the caller uploaded (now, or before), and its first run. */
  async startExtraction(
    caller: Caller,
    input: NewExtractionInput,
  ): Promise<Run<DocumentExtraction, ExtractionStreamEvent>> {
    const { extraction, document } = await this.newExtraction(caller, input);
    const lock = await this.lock(caller, extraction.id);
    const prompt = extractionRequest({
      fileName: document.fileName,
      pageCount: document.pageCount,
      instructions: extraction.instructions,
      schema: extraction.schema,
    });
    return this.extractionRun(caller, extraction, document, prompt, 'extract', lock);
  }

  /** A correction in plain words ("the total is 1,240.50, not 1,204.50"), run on the extraction. */
  async startCorrection(
    caller: Caller,
    extractionId: string,
    message: string,
  ): Promise<Run<DocumentExtraction, ExtractionStreamEvent>> {
    const { extraction, document } = await this.existingExtraction(caller, extractionId);
    const lock = await this.lock(caller, extraction.id);
    const prompt = correctionRequest(message, extraction.status);
    return this.extractionRun(caller, extraction, document, prompt, 'correct', lock);
  }

  /**
   * Checks and stores a new extraction (uploading its file first), without running it: the
   * server queues its run as a job (runJob).
   */
  async createExtraction(caller: Caller, input: NewExtractionInput): Promise<DocumentExtraction> {
    return (await this.newExtraction(caller, input)).extraction;
  }

  /**
   * The caller's extraction, for a new run on it (a correction, a retry): 404 when it or its
   * document is gone, 503 without a model.
   */
  async extractionForRun(caller: Caller, extractionId: string): Promise<DocumentExtraction> {
    return (await this.existingExtraction(caller, extractionId)).extraction;
  }

  private async newExtraction(
    caller: Caller,
    input: NewExtractionInput,
  ): Promise<{ extraction: DocumentExtraction; document: DocumentRecord }> {
    this.requireModel();
    if (input.schema) checkFieldsSchema(input.schema);
    const document = input.upload
      ? await this.uploadDocument(caller, input.upload)
      : await this.deps.store.documents.get(caller.tenantId, input.documentId ?? '', {
          userId: caller.userId,
        });
    if (!document) throw new DocumentError('NOT_FOUND', 'No such document.');
    assertReady(document);
    const extraction = await this.deps.store.documentExtractions.create(caller.tenantId, {
      userId: caller.userId,
      documentId: document.id,
      ...(input.schema ? { schema: input.schema } : {}),
      ...(input.instructions ? { instructions: input.instructions } : {}),
    });
    return { extraction, document };
  }

  private async existingExtraction(
    caller: Caller,
    extractionId: string,
  ): Promise<{ extraction: DocumentExtraction; document: DocumentRecord }> {
    this.requireModel();
    const extraction = await this.deps.store.documentExtractions.get(
      caller.tenantId,
      extractionId,
      { userId: caller.userId },
    );
    if (!extraction) throw new DocumentError('NOT_FOUND', 'No such extraction.');
    const document = await this.deps.store.documents.get(caller.tenantId, extraction.documentId, {
      userId: caller.userId,
    });
    if (!document) throw new DocumentError('NOT_FOUND', "The extraction's document is gone.");
    return { extraction, document };
  }

  /**
   * Claims the extraction's run lock for run `runId` before its job is queued: 409 CONFLICT
   * while another run is queued or going. The worker that runs the job keeps the same lock.
   */
  claimRun(caller: Caller, extractionId: string, runId: string): Promise<HeldLock> {
    return claimRunLock(
      this.deps.store.idempotency,
      caller.tenantId,
      extractionId,
      this.deps.lockLeaseMs,
      runId,
    );
  }

  /** Frees run `runId`'s lock if it still holds it (its job ended, or was never queued). */
  releaseRun(tenantId: string, extractionId: string, runId: string): Promise<void> {
    return releaseRunLock(this.deps.store.idempotency, tenantId, extractionId, runId);
  }

  /**
   * One attempt of a queued run, in whichever process took the job. Its events go on the bus
   * only (the request that started it follows them there). From the second attempt on (its
   * worker died, or the model failed), for a retry, and for a run that finds fields saved
   * before it, the agent is asked to continue from what the tools saved instead of starting
   * over. A model failure is returned, not recorded: the queue tries again, and when it gives
   * up, failRun marks the extraction failed.
   */
  runJob(job: DocumentRunJob, attempt: JobAttempt): Promise<JobRunEnd> {
    return this.withRunLock(job, job.extractionId, attempt, 'document run', (end) =>
      this.runLockedJob(job, attempt, end),
    );
  }

  /**
   * Runs one attempt of a job holding the run lock of `subject` that the run's id owns: adopted
   * from the process that queued it, or `superseded` when another run holds it now. `body` calls
   * `end` when the run has ended, which frees the lock before `complete` goes out (a client that
   * acts on the record at once finds it free); a stopped or failed attempt leaves the lock to the
   * next attempt (renewed by the process that queued it, else lapsing within a lease).
   */
  private async withRunLock(
    job: { tenantId: string; runId: string },
    subject: string,
    attempt: JobAttempt,
    label: string,
    body: (end: () => Promise<void>) => Promise<JobRunEnd>,
  ): Promise<JobRunEnd> {
    const lock = await adoptRunLock(
      this.deps.store.idempotency,
      job.tenantId,
      subject,
      job.runId,
      this.deps.lockLeaseMs,
    );
    if (!lock) {
      this.log.warn(`${label} superseded: another run holds its record`, {
        subject,
        runId: job.runId,
      });
      return { end: 'superseded' };
    }
    let ended = false;
    const end = async () => {
      ended = true;
      await lock.release();
      await attempt.beforeComplete?.();
    };
    try {
      return await body(end);
    } finally {
      if (!ended) lock.drop();
    }
  }

  private async runLockedJob(
    job: DocumentRunJob,
    attempt: JobAttempt,
    end: () => Promise<void>,
  ): Promise<JobRunEnd> {
    const { store } = this.deps;
    const caller: Caller = { tenantId: job.tenantId, userId: job.userId };
    const extraction = await store.documentExtractions.get(job.tenantId, job.extractionId, {
      userId: job.userId,
    });
    const document =
      extraction &&
      (await store.documents.get(job.tenantId, extraction.documentId, { userId: job.userId }));
    if (!extraction || !document) {
      await end();
      return { end: 'superseded' };
    }
    const send = this.publisher(extractionChannel(job.tenantId, extraction.id));
    // An attempt after a takeover (or a run handed back by a closing process, which does not
    // count as an attempt) finds the fields its predecessor saved: it builds on them.
    const saved = extraction.documentType !== null || Object.keys(extraction.fields).length > 0;
    const resume = job.resume === true || attempt.number > 1 || (job.kind === 'extract' && saved);
    if (resume && job.kind === 'extract' && extraction.status === 'completed') {
      // The run that stopped had completed it already: nothing is left to do.
      await end();
      send({ complete: true, extraction_id: extraction.id, cost: USD(0) });
      return { end: 'finished' };
    }
    const prompt = jobPrompt(job, extraction, document, resume);
    const outcome = await this.tracedExtraction(
      {
        caller,
        extraction,
        document,
        prompt,
        kind: job.kind,
        send,
        signal: attempt.signal,
        // The queue tries a failed model again; the record hears of it when it gives up.
        failureIsFinal: false,
        beforeComplete: end,
      },
      resume ? ['resumed'] : [],
    );
    if (outcome.aborted) return { end: 'stopped' };
    if (outcome.failure !== null) {
      send({ text: `The run stopped: ${outcome.failure}` });
      return { end: 'failed', failure: outcome.failure };
    }
    return { end: 'finished' };
  }

  /**
   * A queued run failed for good (its attempts ran out, or a permanent error): the extraction
   * says so (failed, the reason in `error`; a completed one keeps its status), its followers get
   * their `complete`, and its lock is freed. Whichever process saw the failure calls it.
   */
  async failRun(job: DocumentRunJob, reason: string): Promise<void> {
    const { store } = this.deps;
    const extraction = await store.documentExtractions.get(job.tenantId, job.extractionId);
    if (extraction) {
      await store.documentExtractions.setStatus(job.tenantId, job.extractionId, {
        userId: job.userId,
        ...(extraction.status === 'completed' ? {} : { status: 'failed' as const }),
        error: reason,
      });
    }
    await this.releaseRun(job.tenantId, job.extractionId, job.runId);
    if (extraction) {
      const send = this.publisher(extractionChannel(job.tenantId, job.extractionId));
      send({ text: reason });
      send({ complete: true, extraction_id: job.extractionId, cost: USD(0) });
    }
  }

  /** Sets the caller's extraction's status and error (a retry marks it running again). */
  async setRunStatus(
    caller: Caller,
    extractionId: string,
    input: { status: 'in_progress' | 'failed'; error: string | null },
  ): Promise<void> {
    await this.deps.store.documentExtractions.setStatus(caller.tenantId, extractionId, {
      userId: caller.userId,
      ...input,
    });
  }

  /**
   * The events of the extraction's run as it goes on, from whichever process runs it, ending
   * with `complete`; an extraction with no run going answers its `complete` at once.
   */
  async followExtraction(
    caller: Caller,
    extractionId: string,
    /** A reconnect: the seq of the last write the client got (Last-Event-ID). */
    options: { afterSeq?: number } = {},
  ): Promise<AsyncIterable<RunStreamItem>> {
    const extraction = await this.deps.store.documentExtractions.get(
      caller.tenantId,
      extractionId,
      { userId: caller.userId },
    );
    if (!extraction) throw new DocumentError('NOT_FOUND', 'No such extraction.');
    const bus = this.deps.events;
    const completion = async (): Promise<ExtractionStreamEvent> => {
      const now = await this.deps.store.documentExtractions.get(caller.tenantId, extraction.id);
      const cost = USD(now?.costMicroUsd ?? extraction.costMicroUsd);
      return { complete: true, extraction_id: extraction.id, cost };
    };
    if (!bus) {
      // No bus (a bare service in tests): nothing to follow beyond the stored state.
      const channel = new EventChannel<RunStreamItem>();
      channel.push({ event: await completion() });
      channel.close();
      return channel;
    }
    const store = this.deps.store;
    return followExtraction({
      bus,
      tenantId: caller.tenantId,
      extractionId: extraction.id,
      running: () => runInProgress(store.idempotency, caller.tenantId, extraction.id),
      completion,
      ...(options.afterSeq === undefined
        ? {}
        : {
            resume: {
              afterSeq: options.afterSeq,
              history: (afterSeq: number) =>
                store.documentExtractions.listWrites(caller.tenantId, extraction.id, { afterSeq }),
            },
          }),
    });
  }

  /**
   * A table from several of the caller's documents, and the run that fills it, in the calling
   * process (this package's tests, and callers without a queue). On the server a stack's run is
   * a job (the server's stack-runs.ts queues it, runStackJob is its body), so a run whose
   * process dies is taken over by another.
   */
  async startStack(caller: Caller, input: NewStackInput): Promise<Run<Stack, StackStreamEvent>> {
    const stack = await this.createStack(caller, input);
    const lock = await this.lock(caller, stackLockSubject(stack.id));
    const channel = new EventChannel<StackStreamEvent>();
    const publish = this.stackPublisher(stackChannel(caller.tenantId, stack.id));
    const done = this.tracedStack({
      caller,
      stack,
      send: (event) => {
        channel.push(event);
        publish(event);
      },
      failureIsFinal: true,
      keptRows: [],
    })
      .then(() => undefined, this.storeFailed)
      .finally(async () => {
        channel.close();
        await lock.release();
      });
    return { record: stack, events: channel, done };
  }

  /**
   * Checks the documents (404 for any that is not the caller's) and stores a new stack, without
   * running it: the server queues its run as a job (runStackJob).
   */
  async createStack(caller: Caller, input: NewStackInput): Promise<Stack> {
    this.requireModel();
    const documents = await Promise.all(
      input.documentIds.map((id) =>
        this.deps.store.documents.get(caller.tenantId, id, { userId: caller.userId }),
      ),
    );
    const missing = input.documentIds.filter((_, i) => !documents[i]);
    if (missing.length > 0) {
      throw new DocumentError('NOT_FOUND', `No such document: ${missing.join(', ')}.`);
    }
    for (const document of documents) if (document) assertReady(document);
    return this.deps.store.stacks.create(caller.tenantId, {
      userId: caller.userId,
      name: input.name ?? `Table of ${input.documentIds.length} documents`,
      documentIds: input.documentIds,
      ...(input.columns ? { columns: input.columns } : {}),
      ...(input.instructions ? { instructions: input.instructions } : {}),
    });
  }

  /**
   * Claims the stack's run lock for run `runId` before its job is queued; the worker that runs
   * the job keeps the same lock (a new stack is never locked yet: this only fails on a bug).
   */
  claimStackRun(caller: Caller, stackId: string, runId: string): Promise<HeldLock> {
    return claimRunLock(
      this.deps.store.idempotency,
      caller.tenantId,
      stackLockSubject(stackId),
      this.deps.lockLeaseMs,
      runId,
    );
  }

  /** Frees run `runId`'s stack lock if it still holds it (its job ended, or was never queued). */
  releaseStackRun(tenantId: string, stackId: string, runId: string): Promise<void> {
    return releaseRunLock(this.deps.store.idempotency, tenantId, stackLockSubject(stackId), runId);
  }

  /**
   * One attempt of a queued stack run, in whichever process took the job; its events go on the
   * bus only. extract_row saves each document's row as the agent goes, so an attempt that finds
   * rows (its predecessor's worker died) asks the agent to extract only the documents without
   * one. A completed stack is never run again, and a model failure is returned, not recorded:
   * the queue tries again, and when it gives up, failStackRun marks the stack failed.
   */
  runStackJob(job: StackRunJob, attempt: JobAttempt): Promise<JobRunEnd> {
    return this.withRunLock(job, stackLockSubject(job.stackId), attempt, 'stack run', (end) =>
      this.runLockedStackJob(job, attempt, end),
    );
  }

  private async runLockedStackJob(
    job: StackRunJob,
    attempt: JobAttempt,
    end: () => Promise<void>,
  ): Promise<JobRunEnd> {
    const { store } = this.deps;
    const stack = await store.stacks.get(job.tenantId, job.stackId, { userId: job.userId });
    if (!stack) {
      await end();
      return { end: 'superseded' };
    }
    const send = this.stackPublisher(stackChannel(job.tenantId, stack.id));
    if (stack.status === 'completed') {
      // The run that stopped had completed it already: nothing is left to do, and a finished
      // table is never written again.
      await end();
      send({ complete: true, stack_id: stack.id, cost: USD(0) });
      return { end: 'finished' };
    }
    const keptRows = (await store.stacks.listRows(job.tenantId, stack.id)).map(
      (row) => row.documentId,
    );
    const outcome = await this.tracedStack(
      {
        caller: { tenantId: job.tenantId, userId: job.userId },
        stack,
        send,
        signal: attempt.signal,
        // The queue tries a failed model again; the record hears of it when it gives up.
        failureIsFinal: false,
        beforeComplete: end,
        keptRows,
      },
      keptRows.length > 0 || attempt.number > 1 ? ['resumed'] : [],
    );
    if (outcome.aborted) return { end: 'stopped' };
    if (outcome.failure !== null) {
      send({ text: `The run stopped: ${outcome.failure}` });
      return { end: 'failed', failure: outcome.failure };
    }
    return { end: 'finished' };
  }

  /**
   * A queued stack run failed for good (its attempts ran out): the stack says so (failed, the
   * reason in `error`; a completed one keeps its status), its followers get their `complete`,
   * and its lock is freed. Whichever process saw the failure calls it.
   */
  async failStackRun(job: StackRunJob, reason: string): Promise<void> {
    const { store } = this.deps;
    const stack = await store.stacks.get(job.tenantId, job.stackId);
    if (stack && stack.status !== 'completed') {
      await store.stacks.setStatus(job.tenantId, job.stackId, {
        userId: job.userId,
        status: 'failed',
        error: reason,
      });
    }
    await this.releaseStackRun(job.tenantId, job.stackId, job.runId);
    if (stack) {
      const send = this.stackPublisher(stackChannel(job.tenantId, job.stackId));
      send({ text: reason });
      send({ complete: true, stack_id: job.stackId, cost: USD(0) });
    }
  }

  /** Sets the caller's stack's status and error (a run that could not be queued fails it). */
  async setStackStatus(
    caller: Caller,
    stackId: string,
    input: { status: 'failed'; error: string },
  ): Promise<void> {
    await this.deps.store.stacks.setStatus(caller.tenantId, stackId, {
      userId: caller.userId,
      ...input,
    });
  }

  /**
   * The events of the stack's run as it goes on, from whichever process runs it, ending with
   * `complete`; a stack with no run going answers its `complete` (with its cost) at once.
   */
  async followStack(caller: Caller, stackId: string): Promise<AsyncIterable<StackStreamEvent>> {
    const store = this.deps.store;
    const stack = await store.stacks.get(caller.tenantId, stackId, { userId: caller.userId });
    if (!stack) throw new DocumentError('NOT_FOUND', 'No such stack.');
    const completion = async (): Promise<StackStreamEvent> => {
      const now = await store.stacks.get(caller.tenantId, stack.id);
      return {
        complete: true,
        stack_id: stack.id,
        cost: USD(now?.costMicroUsd ?? stack.costMicroUsd),
      };
    };
    const bus = this.deps.events;
    if (!bus) {
      // No bus (a bare service in tests): nothing to follow beyond the stored state.
      const channel = new EventChannel<StackStreamEvent>();
      channel.push(await completion());
      channel.close();
      return channel;
    }
    return followStack({
      bus,
      tenantId: caller.tenantId,
      stackId: stack.id,
      running: () => stackRunInProgress(store.idempotency, caller.tenantId, stack.id),
      completion,
    });
  }

  /** A stack run as one LangFuse trace, tagged `stack` (and `extraTags`). */
  private tracedStack(run: StackRunInput, extraTags: string[] = []): Promise<RunOutcome> {
    const { stack } = run;
    return this.traced(
      `stack-extraction-${stack.id}`,
      run.caller,
      {
        tags: ['stack', ...extraTags],
        input: { stackId: stack.id, documents: stack.documentIds.length },
      },
      (traceId) => this.stackBody({ ...run, traceId }),
    );
  }

  /**
   * The stack run itself: the agent's loop over the stack's tools, then its outcome on the record
   * and the `complete` event. An aborted run writes and sends nothing more (another attempt
   * carries on); with `failureIsFinal` false, neither does one the model failed.
   */
  private async stackBody(run: StackRunInput & { traceId: string | null }): Promise<RunOutcome> {
    const { caller, stack, send } = run;
    const tools = createStackTools({
      store: this.deps.store,
      tenantId: caller.tenantId,
      userId: caller.userId,
      stackId: stack.id,
      keptRows: new Set(run.keptRows),
      ...(this.deps.textBudget !== undefined ? { textBudget: this.deps.textBudget } : {}),
    });
    const prompt = stackRequest({
      name: stack.name,
      documents: stack.documentIds.length,
      columnsGiven: stack.columns.length > 0,
      instructions: stack.instructions,
      rowsDone: run.keptRows.length,
    });
    const outcome = await driveRun({
      agent: {
        llm: this.deps.llm,
        node: 'stack_extraction',
        actionType: 'STACK_EXTRACTION',
        system: STACK_EXTRACTION_SYSTEM,
        tools,
        context: { tenantId: caller.tenantId, userId: caller.userId, traceId: run.traceId },
        ...(this.deps.tracing ? { tracing: this.deps.tracing } : {}),
        maxTurns: this.maxTurns,
      },
      messages: [{ role: 'user', text: prompt }],
      emit: (event) => send(event),
      price: this.price,
      addUsage: (usage) => this.deps.store.stacks.addUsage(caller.tenantId, stack.id, usage),
      log: this.log,
      ...(run.signal ? { signal: run.signal } : {}),
    });
    if (outcome.aborted || (outcome.failure !== null && !run.failureIsFinal)) return outcome;
    const after = await this.deps.store.stacks.get(caller.tenantId, stack.id);
    const problem = endProblem(outcome, after?.status === 'completed', 'table');
    if (problem) {
      send({ text: problem.message });
      await this.deps.store.stacks.setStatus(caller.tenantId, stack.id, {
        userId: caller.userId,
        ...(problem.fail && after?.status !== 'completed' ? { status: 'failed' as const } : {}),
        error: problem.message,
      });
    }
    await run.beforeComplete?.();
    send({ complete: true, stack_id: stack.id, cost: USD(outcome.costMicroUsd) });
    return outcome;
  }

  /** Publishes a stack run's events to followers anywhere. */
  private stackPublisher(topic: string): (event: StackStreamEvent) => void {
    return (event) => {
      this.deps.events
        ?.publish(topic, stackBusMessage(event))
        .catch((error: unknown) => this.log.warn('stack event not published', { error }));
    };
  }

  private extractionRun(
    caller: Caller,
    extraction: DocumentExtraction,
    document: DocumentRecord,
    prompt: string,
    kind: 'extract' | 'correct',
    lock: HeldLock,
  ): Run<DocumentExtraction, ExtractionStreamEvent> {
    const channel = new EventChannel<ExtractionStreamEvent>();
    const send = this.sender(channel, extractionChannel(caller.tenantId, extraction.id));
    const done = this.tracedExtraction({
      caller,
      extraction,
      document,
      prompt,
      kind,
      send,
      failureIsFinal: true,
    })
      .then(() => undefined, this.storeFailed)
      .finally(async () => {
        channel.close();
        await lock.release();
      });
    return { record: extraction, events: channel, done };
  }

  /**
   * The run itself: the agent's loop over the extraction's tools, then its outcome on the
   * record and the `complete` event. An aborted run writes and sends nothing more (another
   * attempt carries on); with `failureIsFinal` false, neither does one the model failed (the
   * queue tries it again).
   */
  /** An extraction run as one LangFuse trace, tagged with its kind (and `extraTags`). */
  private tracedExtraction(run: ExtractionRunInput, extraTags: string[] = []) {
    const { extraction, document, prompt } = run;
    return this.traced(
      `document-extraction-${extraction.id}`,
      run.caller,
      {
        tags: [run.kind, ...extraTags],
        input: { extractionId: extraction.id, documentId: document.id, request: prompt },
      },
      (traceId) => this.extractionBody({ ...run, traceId }),
    );
  }

  private async extractionBody(
    run: ExtractionRunInput & { traceId: string | null },
  ): Promise<RunOutcome> {
    const { caller, extraction, document, kind, send } = run;
    const tools = createDocumentTools({
      store: this.deps.store,
      tenantId: caller.tenantId,
      userId: caller.userId,
      documentId: document.id,
      extractionId: extraction.id,
      ...(this.deps.textBudget !== undefined ? { textBudget: this.deps.textBudget } : {}),
    });
    let knownSeq = 0;
    const outcome = await driveRun({
      agent: {
        llm: this.deps.llm,
        node: 'document_extraction',
        actionType: 'DOCUMENT_EXTRACTION',
        system: DOCUMENT_EXTRACTION_SYSTEM,
        tools,
        context: { tenantId: caller.tenantId, userId: caller.userId, traceId: run.traceId },
        ...(this.deps.tracing ? { tracing: this.deps.tracing } : {}),
        maxTurns: this.maxTurns,
        // The history entry a write just made (the run holds the extraction's lock: nobody
        // else writes): read after the last one known, so the first read is the only long one.
        writeSeq: async () => {
          const added = await this.deps.store.documentExtractions.listWrites(
            caller.tenantId,
            extraction.id,
            { afterSeq: knownSeq },
          );
          knownSeq = added.at(-1)?.seq ?? knownSeq;
          return added.length > 0 ? knownSeq : null;
        },
      },
      messages: [{ role: 'user', text: run.prompt }],
      emit: (event: RunEvent, id?: number) => send(event, id),
      price: this.price,
      addUsage: (usage) =>
        this.deps.store.documentExtractions.addUsage(caller.tenantId, extraction.id, usage),
      log: this.log,
      ...(run.signal ? { signal: run.signal } : {}),
    });
    if (outcome.aborted || (outcome.failure !== null && !run.failureIsFinal)) return outcome;
    const after = await this.deps.store.documentExtractions.get(caller.tenantId, extraction.id);
    // A correction leaves a completed extraction completed: it only changes values.
    const finished =
      after?.status === 'completed' || (kind === 'correct' && extraction.status === 'completed');
    const problem = endProblem(outcome, finished, 'extraction');
    if (problem) {
      send({ text: problem.message });
      await this.deps.store.documentExtractions.setStatus(caller.tenantId, extraction.id, {
        userId: caller.userId,
        ...(problem.fail && after?.status !== 'completed' ? { status: 'failed' as const } : {}),
        error: problem.message,
      });
    } else if (after?.error) {
      await this.deps.store.documentExtractions.setStatus(caller.tenantId, extraction.id, {
        userId: caller.userId,
        error: null,
      });
    }
    await run.beforeComplete?.();
    send({
      complete: true,
      extraction_id: extraction.id,
      cost: USD(outcome.costMicroUsd),
    });
    return outcome;
  }

  /** Publishes to followers anywhere (a queued run's only audience). */
  private publisher(topic: string): (event: ExtractionStreamEvent, id?: number) => void {
    return (event, id) => {
      this.deps.events
        ?.publish(topic, runBusMessage(event, id))
        .catch((error: unknown) => this.log.warn('run event not published', { error }));
    };
  }

  private readonly storeFailed = (error: unknown): void => {
    // The run itself never throws (driveRun catches); this is the store failing at the end.
    this.log.error('document run could not store its outcome', { error });
  };

  /** Pushes to the stream of the request that started the run, and to followers anywhere. */
  private sender(
    channel: EventChannel<ExtractionStreamEvent>,
    topic: string,
  ): (event: ExtractionStreamEvent, id?: number) => void {
    const publish = this.publisher(topic);
    return (event, id) => {
      channel.push(event);
      publish(event, id);
    };
  }

  /** Runs `work` as one LangFuse trace (when tracing is on). */
  private async traced<T>(
    name: string,
    caller: Caller,
    attributes: { tags: string[]; input: unknown },
    work: (traceId: string | null) => Promise<T>,
  ): Promise<T> {
    const tracing = this.deps.tracing;
    if (!tracing?.enabled) return work(null);
    let result: { value: T } | undefined;
    await tracing.startTrace(
      name,
      {
        tenantId: caller.tenantId,
        userId: caller.userId,
        tags: attributes.tags,
        input: attributes.input,
      },
      async (trace) => {
        const value = await work(trace.traceId);
        result = { value };
        trace.setOutput(value);
      },
    );
    if (!result) throw new Error('The trace ended without running its work.');
    return result.value;
  }

  private requireModel(): void {
    if (!this.deps.llm.configured) {
      throw new DocumentError('LLM_NOT_CONFIGURED', new LlmNotConfiguredError().message);
    }
  }

  private lock(caller: Caller, subject: string): Promise<HeldLock> {
    return claimRunLock(
      this.deps.store.idempotency,
      caller.tenantId,
      subject,
      this.deps.lockLeaseMs,
    );
  }
}

/** The user turn that starts a job's run: its request, or the request to continue it. */
function jobPrompt(
  job: DocumentRunJob,
  extraction: DocumentExtraction,
  document: DocumentRecord,
  resume: boolean,
): string {
  const extract = {
    fileName: document.fileName,
    pageCount: document.pageCount,
    instructions: extraction.instructions,
    schema: extraction.schema,
  };
  if (job.kind === 'correct') {
    return resume
      ? continueRequest({ kind: 'correct', message: job.message ?? '', status: extraction.status })
      : correctionRequest(job.message ?? '', extraction.status);
  }
  return resume ? continueRequest({ kind: 'extract', ...extract }) : extractionRequest(extract);
}

/**
 * How a run that did not finish its job ended, for the user and the record. `fail`: the agent
 * gave up or ran out of turns (status failed); a crash keeps the status (in progress), with the
 * writes made so far, and the user can send a message to go on.
 */
function endProblem(
  outcome: RunOutcome,
  finished: boolean,
  what: 'extraction' | 'table',
): { message: string; fail: boolean } | null {
  if (outcome.failure !== null) {
    return {
      message: `The run stopped: ${outcome.failure} What was saved so far is kept; send a message to continue.`,
      fail: false,
    };
  }
  if (finished) return null;
  if (outcome.stoppedAtLimit) {
    return {
      message: `The agent stopped after ${outcome.turns} steps without completing the ${what}.`,
      fail: true,
    };
  }
  return { message: `The agent ended without completing the ${what}.`, fail: true };
}

/** The fields are an object: the schema must describe one, with features the checks enforce. */
function checkFieldsSchema(schema: Record<string, unknown>): void {
  if (schema.type !== 'object') {
    throw new DocumentError('BAD_REQUEST', 'schema must describe an object ("type": "object").');
  }
  const unsupported = unsupportedFeatures(schema);
  if (unsupported.length > 0) {
    throw new DocumentError(
      'BAD_REQUEST',
      `schema uses ${unsupported.slice(0, 5).join(', ')}, which extraction cannot enforce.`,
    );
  }
}

/**
 * Only a read document has text to extract: 409 while its upload job reads it (try again when
 * GET /api/documents/{id} says `ready`), or after reading it failed.
 */
function assertReady(document: DocumentRecord): void {
  if (document.status === 'processing') {
    throw new DocumentError(
      'CONFLICT',
      `${document.fileName} (${document.id}) is still being read; try again when its status is ready.`,
    );
  }
  if (document.status === 'failed') {
    throw new DocumentError(
      'CONFLICT',
      `${document.fileName} (${document.id}) could not be read: ${document.error ?? 'unknown error'}`,
    );
  }
}
