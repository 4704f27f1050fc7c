// Document-extraction runs (an extraction's first run, a correction, a retry) are jobs of the
// job port (@tandem/jobs, queue "document-run"), as crawls are (knowledge-jobs.ts): any process
// serving the queue runs them, one worker at a time per run. A process that dies mid-run stops
// renewing the job's lease and another worker takes the job over; the document tools saved each
// field as the agent went, so the new attempt asks the agent to continue from them
// (DocumentAgentService.runJob) instead of starting over.
//
// What a run holds, and who keeps it:
// - the extraction's run lock (one run per extraction: a correction meanwhile is 409) and one of
//   its tenant's DOCUMENT_RUNS_PER_TENANT slots (429 beyond) are leases in the store, claimed by
//   the request that starts the run before its job is queued, owned by the run's id;
// - that process renews both until it sees the run end (its `complete` on the bus, or the job
//   finished in the queue), so they stay held while the job waits and between attempts;
// - the worker running an attempt renews them too, and frees them when the run ends, before its
//   `complete` goes out; onFailed frees them when the job fails for good;
// - when both processes are gone, the leases lapse within one lease (30 s).
// Releases check the owner, so no process frees a lock or slot a later run has taken since.
import { randomUUID } from 'node:crypto';
import {
  extractionChannel,
  readRunBusMessage,
  type Caller,
  type DocumentAgentService,
  type DocumentRunJob,
  type NewExtractionInput,
  type RunStreamItem,
} from '@tandem/agent';
import {
  isJobQueueUnavailableError,
  type EventBus,
  type JobQueue,
  type JobState,
  type RunningJob,
} from '@tandem/jobs';
import type { DocumentExtraction, Store } from '@tandem/store';
import { HttpError } from './http-error';
import type { Logger } from './logger';
import { adoptSlot, claimSlot, DOCUMENT_RUNS, releaseSlot, type HeldSlot } from './tenant-slots';

/** The job queue document runs go on. */
export const DOCUMENT_RUN_QUEUE = 'document-run';
/**
 * Runs one process takes at once. A run mostly waits on the model, so a process runs many; the
 * per-tenant cap (DOCUMENT_RUNS_PER_TENANT) is what keeps one tenant from taking them all.
 */
const RUNS_AT_ONCE = 16;
/** Attempts of one run: a takeover after a crash uses one, as does a model that kept failing. */
const RUN_ATTEMPTS = 3;
const RUN_BACKOFF_MS = 5_000;
/** How often the starting process asks the queue whether a run it holds leases for ended. */
const WATCH_MS = 3_000;

/** The job's data: the run, and the tenant slot it holds (a lease key in the store). */
export interface DocumentRunData extends DocumentRunJob {
  slotKey: string;
}

export interface DocumentRunnerDeps {
  store: Pick<Store, 'idempotency'>;
  documents: DocumentAgentService;
  queue: JobQueue;
  events: Pick<EventBus, 'subscribe'>;
  /** DOCUMENT_RUNS_PER_TENANT. */
  runsPerTenant: number;
  log: Logger;
  /** Tests: attempts per run and the wait before the second. */
  attempts?: number;
  backoffMs?: number;
}

export interface StartedRun {
  record: DocumentExtraction;
  /** The run's id: its job's id in the queue. */
  runId: string;
  /** The run's events from the bus (a write's with its history seq), ending with `complete`. */
  events: AsyncIterable<RunStreamItem>;
}

/** What this process holds for a run it started: the leases it renews until the run ends. */
interface Watch {
  /** The job is in the queue: from now on, its state there can say the run ended. */
  queued(): void;
  /** The run ended: free its slot and lock (if it still owns them). */
  finish(): Promise<void>;
  /** This process is closing: stop renewing, free nothing (the run goes on elsewhere). */
  drop(): void;
}

export class DocumentRunner {
  private serving = false;
  private readonly watches = new Map<string, Watch>();

  constructor(private readonly deps: DocumentRunnerDeps) {}

  /** Runs document runs in this process: the queue's worker. */
  serve(): void {
    if (this.serving) return;
    this.serving = true;
    this.deps.queue.work<DocumentRunData>(DOCUMENT_RUN_QUEUE, (job) => this.run(job), {
      concurrency: RUNS_AT_ONCE,
      onFailed: (job) => this.failed(job),
    });
  }

  /** A new extraction of a document (uploaded now, or before) and its first run, queued. */
  async startExtraction(caller: Caller, input: NewExtractionInput): Promise<StartedRun> {
    return this.start(caller, { kind: 'extract' }, () =>
      this.deps.documents.createExtraction(caller, input),
    );
  }

  /** A correction in plain words, run on the extraction: 409 while another run goes on. */
  startCorrection(caller: Caller, extractionId: string, message: string): Promise<StartedRun> {
    return this.start(caller, { kind: 'correct', message }, () =>
      this.deps.documents.extractionForRun(caller, extractionId),
    );
  }

  /**
   * A failed extraction's run, again: a fresh run that keeps the fields saved so far and
   * finishes the rest. 409 when the extraction has not failed (or a run goes on already).
   */
  retry(caller: Caller, extractionId: string): Promise<StartedRun> {
    return this.start(
      caller,
      { kind: 'extract', resume: true },
      async () => {
        const extraction = await this.deps.documents.extractionForRun(caller, extractionId);
        if (extraction.status !== 'failed') {
          throw new HttpError(
            'CONFLICT',
            `The extraction is ${extraction.status.replace('_', ' ')}, not failed: there is nothing to retry.`,
          );
        }
        return extraction;
      },
      // Running again: the page shows it going, not failed, while the run lasts.
      (extraction) =>
        this.deps.documents.setRunStatus(caller, extraction.id, {
          status: 'in_progress',
          error: null,
        }),
    );
  }

  /**
   * Takes a slot (429 past the tenant's cap), checks or creates the record, claims its run lock
   * (409), follows its channel, then queues the run. Everything taken is given back when a step
   * fails, so a refused start holds nothing.
   */
  private async start(
    caller: Caller,
    run: Pick<DocumentRunJob, 'kind' | 'message' | 'resume'>,
    record: () => Promise<DocumentExtraction>,
    beforeQueue?: (extraction: DocumentExtraction) => Promise<void>,
  ): Promise<StartedRun> {
    const { store, documents, queue, runsPerTenant } = this.deps;
    const runId = randomUUID();
    const slot = await claimSlot(
      store.idempotency,
      caller.tenantId,
      DOCUMENT_RUNS,
      runsPerTenant,
      runId,
    );
    let watch: Watch | null = null;
    let events: AsyncIterable<RunStreamItem> | null = null;
    let queuing: DocumentExtraction | null = null;
    try {
      const extraction = await record();
      const lock = await documents.claimRun(caller, extraction.id, runId);
      watch = this.watch(caller.tenantId, extraction.id, runId, slot, lock);
      // Followed before it is queued: a worker may publish its first event at once.
      events = await documents.followExtraction(caller, extraction.id);
      await beforeQueue?.(extraction);
      const data: DocumentRunData = {
        runId,
        tenantId: caller.tenantId,
        userId: caller.userId,
        extractionId: extraction.id,
        ...run,
        slotKey: slot.key,
      };
      queuing = extraction;
      await queue.add({
        queue: DOCUMENT_RUN_QUEUE,
        id: runId,
        tenantId: caller.tenantId,
        data,
        attempts: this.deps.attempts ?? RUN_ATTEMPTS,
        backoffMs: this.deps.backoffMs ?? RUN_BACKOFF_MS,
      });
      watch.queued();
      return { record: extraction, runId, events };
    } catch (error) {
      await events?.[Symbol.asyncIterator]().return?.();
      if (watch) await watch.finish();
      else await slot.release();
      if (queuing && run.kind === 'extract') {
        // Nothing will run it: the record says so (and may be retried), rather than showing an
        // extraction in progress forever.
        await documents
          .setRunStatus(caller, queuing.id, {
            status: 'failed',
            error: `The run could not be queued: ${error instanceof Error ? error.message : String(error)}`,
          })
          .catch(() => undefined);
      }
      if (!isJobQueueUnavailableError(error)) throw error;
      // Nothing will run it: tell the client to try again rather than leave a run pending.
      throw new HttpError(
        'SERVICE_UNAVAILABLE',
        'The job queue is unavailable, so the run could not be started; try again shortly.',
        { headers: { 'retry-after': '30' } },
      );
    }
  }

  /**
   * Keeps the run's slot and lock (renewed by their holders) until the run ends: its `complete`
   * on the bus, or, once queued, the queue saying the job finished (a `complete` lost with a
   * dead process).
   */
  private watch(
    tenantId: string,
    extractionId: string,
    runId: string,
    slot: HeldSlot,
    lock: { release(): Promise<void>; drop(): void },
  ): Watch {
    let timer: ReturnType<typeof setInterval> | undefined;
    let finishing: Promise<void> | null = null;
    const stop = () => {
      clearInterval(timer);
      unsubscribe();
      this.watches.delete(runId);
    };
    const unsubscribe = this.deps.events.subscribe(
      extractionChannel(tenantId, extractionId),
      (data) => {
        const item = readRunBusMessage(data);
        if (item && 'complete' in item.event) void watch.finish();
      },
    );
    const watch: Watch = {
      queued: () => {
        if (finishing) return;
        timer = setInterval(() => {
          void this.deps.queue.state(tenantId, DOCUMENT_RUN_QUEUE, runId).then(
            (state) => {
              if (!state || state.status === 'completed' || state.status === 'failed') {
                void watch.finish();
              }
            },
            () => undefined, // the queue is unreachable for now: the leases are renewed meanwhile
          );
        }, WATCH_MS);
        timer.unref();
      },
      finish: () => {
        finishing ??= (async () => {
          stop();
          await Promise.all([slot.release(), lock.release()]);
        })();
        return finishing;
      },
      drop: () => {
        finishing ??= Promise.resolve();
        stop();
        slot.drop();
        lock.drop();
      },
    };
    this.watches.set(runId, watch);
    return watch;
  }

  /** One attempt of a run, on whichever process took the job. */
  private async run(job: RunningJob<DocumentRunData>): Promise<void> {
    const { store, documents, log } = this.deps;
    const data = job.data;
    const slot = await adoptSlot(store.idempotency, data.tenantId, data.slotKey, data.runId);
    let end: Awaited<ReturnType<DocumentAgentService['runJob']>>;
    try {
      end = await documents.runJob(data, {
        number: job.attempt,
        signal: job.signal,
        // Free the run's slot (here and in the process that started it, when it is this one)
        // before its `complete` goes out: a client that starts its next run on it finds room.
        beforeComplete: async () => {
          await slot?.release();
          await this.watches.get(data.runId)?.finish();
        },
      });
    } catch (error) {
      // The store failed under the run: the queue tries again, from what was saved.
      slot?.drop();
      log.error('document run interrupted', { runId: data.runId, attempt: job.attempt, error });
      throw error;
    }
    switch (end.end) {
      case 'finished':
      case 'superseded':
        await slot?.release();
        return;
      case 'stopped':
        // Handed back (or taken over): the next attempt keeps the slot.
        slot?.drop();
        return;
      case 'failed':
        slot?.drop();
        log.warn('document run failed', {
          runId: data.runId,
          attempt: job.attempt,
          failure: end.failure,
        });
        throw new Error(end.failure);
    }
  }

  /** Every attempt failed (the model kept failing, or the worker kept dying): say so. */
  private async failed(state: JobState & { data: DocumentRunData }): Promise<void> {
    const { store, documents } = this.deps;
    const data = state.data;
    const times = state.attempts === 1 ? 'once' : `${state.attempts} times`;
    const reason = `The run stopped ${times} and was given up: ${state.error ?? 'unknown error'} What was saved so far is kept; retry to finish it.`;
    await releaseSlot(store.idempotency, data.tenantId, data.slotKey, data.runId);
    await this.watches.get(data.runId)?.finish();
    await documents.failRun(data, reason);
  }

  /**
   * Stops renewing what this process holds for runs it started (Runtime.close(), after the
   * queue handed its running jobs back): their workers keep them, or they lapse within a lease.
   */
  close(): void {
    for (const watch of [...this.watches.values()]) watch.drop();
  }
}
