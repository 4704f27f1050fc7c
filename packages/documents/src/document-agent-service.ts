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
//
// The service is a facade over the parts that do the work: uploads.ts reads files,
// extraction-runs.ts runs extractions and corrections, stack-extraction-runs.ts runs stacks, and
// run-kit.ts holds what both kinds of run share (locks, tracing, publishing, the model check),
// built once from the deps. Its public methods are the API the server and the tests use.
import type { ExtractionStreamEvent, StackColumn, StackStreamEvent } from '@tandem/contracts';
import type { Logger, Tracing } from '@tandem/observability';
import type { DocumentExtraction, DocumentRecord, Stack, Store } from '@tandem/store';
import type { LlmClient, LlmUsage } from '@tandem/llm';

import { ExtractionRuns } from './extraction-runs';
import type { HeldLock } from './run-lock';
import type { RunEventBus, RunStreamItem } from './run-events';
import { RunKit } from './run-kit';
import { StackExtractionRuns } from './stack-extraction-runs';
import * as uploads from './uploads';

export { DEFAULT_MAX_TURNS } from './run-kit';

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

/** A new extraction: of a document uploaded before, or of one uploaded with it. */
export interface NewExtractionInput {
  documentId?: string;
  upload?: UploadedFile;
  schema?: Record<string, unknown>;
  instructions?: string;
}

/**
 * A document run as a job carries it: the server queues it, any process serving the queue runs
 * it (runJob), a later attempt after a takeover included. JSON, as the queue stores it.
 */
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

export class DocumentAgentService {
  private readonly extractions: ExtractionRuns;
  private readonly stacks: StackExtractionRuns;

  constructor(private readonly deps: DocumentAgentDeps) {
    const kit = new RunKit(deps);
    this.extractions = new ExtractionRuns(kit);
    this.stacks = new StackExtractionRuns(kit);
  }

  /** Reads a file's text (OCR for scans) and keeps it as the caller's document. */
  uploadDocument(caller: Caller, file: UploadedFile): Promise<DocumentRecord> {
    return uploads.uploadDocument(this.deps, caller, file);
  }

  /** Reads a file into a document's text without storing it (the server's upload job). */
  readUpload(caller: Caller, file: UploadedFile): Promise<DocumentRead> {
    return uploads.readUpload(this.deps, caller, file);
  }

  /** A new extraction of a document the caller uploaded (now, or before), and its first run. */
  startExtraction(
    caller: Caller,
    input: NewExtractionInput,
  ): Promise<Run<DocumentExtraction, ExtractionStreamEvent>> {
    return this.extractions.startExtraction(caller, input);
  }

  /** A correction in plain words ("the total is 1,240.50, not 1,204.50"), run on the extraction. */
  startCorrection(
    caller: Caller,
    extractionId: string,
    message: string,
  ): Promise<Run<DocumentExtraction, ExtractionStreamEvent>> {
    return this.extractions.startCorrection(caller, extractionId, message);
  }

  /** Checks and stores a new extraction without running it (the server queues its run). */
  createExtraction(caller: Caller, input: NewExtractionInput): Promise<DocumentExtraction> {
    return this.extractions.createExtraction(caller, input);
  }

  /** The caller's extraction, for a new run on it (a correction, a retry). */
  extractionForRun(caller: Caller, extractionId: string): Promise<DocumentExtraction> {
    return this.extractions.extractionForRun(caller, extractionId);
  }

  /** Claims the extraction's run lock for run `runId` before its job is queued. */
  claimRun(caller: Caller, extractionId: string, runId: string): Promise<HeldLock> {
    return this.extractions.claimRun(caller, extractionId, runId);
  }

  /** Frees run `runId`'s lock if it still holds it (its job ended, or was never queued). */
  releaseRun(tenantId: string, extractionId: string, runId: string): Promise<void> {
    return this.extractions.releaseRun(tenantId, extractionId, runId);
  }

  /** One attempt of a queued extraction run, in whichever process took the job. */
  runJob(job: DocumentRunJob, attempt: JobAttempt): Promise<JobRunEnd> {
    return this.extractions.runJob(job, attempt);
  }

  /** A queued extraction run failed for good: the record and its followers hear of it. */
  failRun(job: DocumentRunJob, reason: string): Promise<void> {
    return this.extractions.failRun(job, reason);
  }

  /** Sets the caller's extraction's status and error (a retry marks it running again). */
  setRunStatus(
    caller: Caller,
    extractionId: string,
    input: { status: 'in_progress' | 'failed'; error: string | null },
  ): Promise<void> {
    return this.extractions.setRunStatus(caller, extractionId, input);
  }

  /** The events of the extraction's run as it goes on, from whichever process runs it. */
  followExtraction(
    caller: Caller,
    extractionId: string,
    /** A reconnect: the seq of the last write the client got (Last-Event-ID). */
    options: { afterSeq?: number } = {},
  ): Promise<AsyncIterable<RunStreamItem>> {
    return this.extractions.followExtraction(caller, extractionId, options);
  }

  /** A table from several of the caller's documents, and its run, in the calling process. */
  startStack(caller: Caller, input: NewStackInput): Promise<Run<Stack, StackStreamEvent>> {
    return this.stacks.startStack(caller, input);
  }

  /** Checks the documents and stores a new stack without running it (the server queues it). */
  createStack(caller: Caller, input: NewStackInput): Promise<Stack> {
    return this.stacks.createStack(caller, input);
  }

  /** Claims the stack's run lock for run `runId` before its job is queued. */
  claimStackRun(caller: Caller, stackId: string, runId: string): Promise<HeldLock> {
    return this.stacks.claimStackRun(caller, stackId, runId);
  }

  /** Frees run `runId`'s stack lock if it still holds it (its job ended, or was never queued). */
  releaseStackRun(tenantId: string, stackId: string, runId: string): Promise<void> {
    return this.stacks.releaseStackRun(tenantId, stackId, runId);
  }

  /** One attempt of a queued stack run, in whichever process took the job. */
  runStackJob(job: StackRunJob, attempt: JobAttempt): Promise<JobRunEnd> {
    return this.stacks.runStackJob(job, attempt);
  }

  /** A queued stack run failed for good: the stack and its followers hear of it. */
  failStackRun(job: StackRunJob, reason: string): Promise<void> {
    return this.stacks.failStackRun(job, reason);
  }

  /** Sets the caller's stack's status and error (a run that could not be queued fails it). */
  setStackStatus(
    caller: Caller,
    stackId: string,
    input: { status: 'failed'; error: string },
  ): Promise<void> {
    return this.stacks.setStackStatus(caller, stackId, input);
  }

  /** The events of the stack's run as it goes on, from whichever process runs it. */
  followStack(caller: Caller, stackId: string): Promise<AsyncIterable<StackStreamEvent>> {
    return this.stacks.followStack(caller, stackId);
  }
}
