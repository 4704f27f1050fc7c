// Extraction runs (a first run on a document, a correction, a retry): the extraction records
// they work on, their run locks, and the runs themselves, in the calling process
// (startExtraction, startCorrection) or as one attempt of a queued job (runJob, failRun), and
// the events that followers anywhere hear of them. The plumbing they share with stack runs
// (locks, tracing, publishing, the model check) is the RunKit's.
import type { ExtractionStreamEvent } from '@tandem/contracts';
import { unsupportedFeatures } from '@tandem/extraction';
import type { DocumentExtraction, DocumentRecord } from '@tandem/store';

import { driveRun, type RunEvent, type RunOutcome } from './agent-run';
import type {
  Caller,
  DocumentAgentDeps,
  DocumentRunJob,
  JobAttempt,
  JobRunEnd,
  NewExtractionInput,
  Run,
} from './document-agent-service';
import { DocumentError } from './document-error';
import { EventChannel } from './event-channel';
import type { HeldLock } from './run-lock';
import {
  extractionChannel,
  followExtraction,
  runBusMessage,
  runInProgress,
  type RunStreamItem,
} from './run-events';
import { assertReady, endProblem, jobEnd, USD, type RunKit } from './run-kit';
import {
  continueRequest,
  correctionRequest,
  createDocumentTools,
  DOCUMENT_EXTRACTION_SYSTEM,
  extractionRequest,
} from './tools';
import { uploadDocument } from './uploads';

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

export class ExtractionRuns {
  private readonly deps: DocumentAgentDeps;

  constructor(private readonly kit: RunKit) {
    this.deps = kit.deps;
  }

  /** A new extraction of a document the caller uploaded (now, or before), and its first run. */
  async startExtraction(
    caller: Caller,
    input: NewExtractionInput,
  ): Promise<Run<DocumentExtraction, ExtractionStreamEvent>> {
    const { extraction, document } = await this.newExtraction(caller, input);
    const lock = await this.kit.lock(caller, extraction.id);
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
    const lock = await this.kit.lock(caller, extraction.id);
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
    this.kit.requireModel();
    if (input.schema) checkFieldsSchema(input.schema);
    const document = input.upload
      ? await uploadDocument(this.deps, caller, input.upload)
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
    this.kit.requireModel();
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
    return this.kit.lock(caller, extractionId, runId);
  }

  /** Frees run `runId`'s lock if it still holds it (its job ended, or was never queued). */
  releaseRun(tenantId: string, extractionId: string, runId: string): Promise<void> {
    return this.kit.release(tenantId, extractionId, runId);
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
    return this.kit.withRunLock(job, job.extractionId, attempt, 'document run', (end) =>
      this.runLockedJob(job, attempt, end),
    );
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
    return jobEnd(outcome, send);
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
   * A run in the calling process: its events go to the request's stream and to followers
   * anywhere, and the lock the caller claimed is freed when it ends.
   */
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
      .then(() => undefined, this.kit.storeFailed)
      .finally(async () => {
        channel.close();
        await lock.release();
      });
    return { record: extraction, events: channel, done };
  }

  /** An extraction run as one LangFuse trace, tagged with its kind (and `extraTags`). */
  private tracedExtraction(run: ExtractionRunInput, extraTags: string[] = []) {
    const { extraction, document, prompt } = run;
    return this.kit.traced(
      `document-extraction-${extraction.id}`,
      run.caller,
      {
        tags: [run.kind, ...extraTags],
        input: { extractionId: extraction.id, documentId: document.id, request: prompt },
      },
      (traceId) => this.extractionBody({ ...run, traceId }),
    );
  }

  /**
   * The run itself: the agent's loop over the extraction's tools, then its outcome on the
   * record and the `complete` event. An aborted run writes and sends nothing more (another
   * attempt carries on); with `failureIsFinal` false, neither does one the model failed (the
   * queue tries it again).
   */
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
        maxTurns: this.kit.maxTurns,
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
      price: this.kit.price,
      addUsage: (usage) =>
        this.deps.store.documentExtractions.addUsage(caller.tenantId, extraction.id, usage),
      log: this.kit.log,
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
    return this.kit.publisher(topic, runBusMessage, 'run event');
  }

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
