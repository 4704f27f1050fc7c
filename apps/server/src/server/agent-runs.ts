// What document-extraction runs (document-runs.ts) and stack runs (stack-runs.ts) share as jobs
// of the job port (@tandem/jobs): any process serving the run's queue runs it, one worker at a
// time per run, and another takes a run over when its process dies.
//
// What a run holds, and who keeps it:
// - the record's run lock (one run per extraction or stack: another meanwhile is 409) and one of
//   its tenant's DOCUMENT_RUNS_PER_TENANT slots (429 beyond) are leases in the store, claimed by
//   the request that starts the run before its job is queued, owned by the run's id;
// - that process renews both until it sees the run end (its `complete` on the bus, or the job
//   finished in the queue), so they stay held while the job waits and between attempts;
// - the worker running an attempt renews them too, and frees them when the run ends, before its
//   `complete` goes out; the queue's onFailed frees them when the job fails for good;
// - when both processes are gone, the leases lapse within one lease (30 s).
// Releases check the owner, so no process frees a lock or slot a later run has taken since.
import { randomUUID } from 'node:crypto';
import type { Caller, JobAttempt, JobRunEnd } from '@tandem/documents';
import {
  isJobQueueUnavailableError,
  type EventBus,
  type JobQueue,
  type JobState,
  type RunningJob,
} from '@tandem/jobs';
import type { Store } from '@tandem/store';
import { HttpError } from './http-error';
import type { Logger } from '@tandem/observability';
import { adoptSlot, claimSlot, DOCUMENT_RUNS, releaseSlot, type HeldSlot } from './tenant-slots';

/**
 * Runs one process takes at once, per kind. A run mostly waits on the model, so a process runs
 * many; the per-tenant cap (DOCUMENT_RUNS_PER_TENANT) keeps one tenant from taking them all.
 */
const RUNS_AT_ONCE = 16;
/** Attempts of one run: a takeover after a crash uses one, as does a model that kept failing. */
const RUN_ATTEMPTS = 3;
const RUN_BACKOFF_MS = 5_000;
/** How often the starting process asks the queue whether a run it holds leases for ended. */
const WATCH_MS = 3_000;

/** Every run's job data: who runs it, and the tenant slot it holds (a lease key in the store). */
export interface AgentRunData {
  runId: string;
  tenantId: string;
  userId: string;
  slotKey: string;
}

export interface AgentRunDeps {
  store: Pick<Store, 'idempotency'>;
  queue: JobQueue;
  events: Pick<EventBus, 'subscribe'>;
  /** DOCUMENT_RUNS_PER_TENANT: extraction and stack runs share the tenant's slots. */
  runsPerTenant: number;
  log: Logger;
  /** Tests: attempts per run and the wait before the second. */
  attempts?: number;
  backoffMs?: number;
}

/** A kind of run: its queue, its bus channel, and how a worker runs and gives it up. */
export interface AgentRunKind<Data extends AgentRunData> {
  queue: string;
  /** For logs: "document run", "stack run". */
  label: string;
  /** The bus channel of the run's record, which every follower subscribes to. */
  channel(tenantId: string, recordId: string): string;
  /** Whether a message on that channel is the run's `complete`. */
  isComplete(message: unknown): boolean;
  /** One attempt's body, on the worker. */
  attempt(data: Data, attempt: JobAttempt): Promise<JobRunEnd>;
  /** Every attempt failed: mark the record failed with `reason` and tell its followers. */
  giveUp(data: Data, reason: string): Promise<void>;
  /** Said after the reason when the run is given up: what happens to the work saved. */
  keptWords: string;
}

/** What a start does, in order, between taking the slot and queueing the job. */
export interface RunStart<Record extends { id: string }, Item, Data extends AgentRunData> {
  /** Checks or creates the record the run works on. */
  record(): Promise<Record>;
  /** The record's run lock, owned by the run's id (409 while another run holds it). */
  claimLock(record: Record, runId: string): Promise<{ release(): Promise<void>; drop(): void }>;
  /** The run's events from the bus. */
  follow(record: Record): Promise<AsyncIterable<Item>>;
  beforeQueue?(record: Record): Promise<void>;
  /** The job's data, without what every run carries. */
  data(record: Record): Omit<Data, keyof AgentRunData>;
  /** The job could not be queued: say so on the record rather than show it running forever. */
  unqueued?(record: Record, reason: string): Promise<void>;
}

export interface StartedAgentRun<Record, Item> {
  record: Record;
  /** The run's id: its job's id in the queue. */
  runId: string;
  /** The run's events from the bus, ending with `complete`. */
  events: AsyncIterable<Item>;
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

export class AgentRuns<Data extends AgentRunData> {
  private serving = false;
  private readonly watches = new Map<string, Watch>();

  constructor(
    private readonly deps: AgentRunDeps,
    private readonly kind: AgentRunKind<Data>,
  ) {}

  /** Runs this kind's runs in this process: the queue's worker. */
  serve(): void {
    if (this.serving) return;
    this.serving = true;
    this.deps.queue.work<Data>(this.kind.queue, (job) => this.run(job), {
      concurrency: RUNS_AT_ONCE,
      onFailed: (job) => this.failed(job),
    });
  }

  /**
   * Takes a slot (429 past the tenant's cap), checks or creates the record, claims its run lock
   * (409), follows its channel, then queues the run. Everything taken is given back when a step
   * fails, so a refused start holds nothing.
   */
  async start<Record extends { id: string }, Item>(
    caller: Caller,
    steps: RunStart<Record, Item, Data>,
  ): Promise<StartedAgentRun<Record, Item>> {
    const { store, queue, runsPerTenant } = this.deps;
    const runId = randomUUID();
    const slot = await claimSlot(
      store.idempotency,
      caller.tenantId,
      DOCUMENT_RUNS,
      runsPerTenant,
      runId,
    );
    let watch: Watch | null = null;
    let events: AsyncIterable<Item> | null = null;
    let queuing: Record | null = null;
    try {
      const record = await steps.record();
      const lock = await steps.claimLock(record, runId);
      watch = this.watch(caller.tenantId, record.id, runId, slot, lock);
      // Followed before it is queued: a worker may publish its first event at once.
      events = await steps.follow(record);
      await steps.beforeQueue?.(record);
      const data = {
        ...steps.data(record),
        runId,
        tenantId: caller.tenantId,
        userId: caller.userId,
        slotKey: slot.key,
      } as Data;
      queuing = record;
      await queue.add({
        queue: this.kind.queue,
        id: runId,
        tenantId: caller.tenantId,
        data,
        attempts: this.deps.attempts ?? RUN_ATTEMPTS,
        backoffMs: this.deps.backoffMs ?? RUN_BACKOFF_MS,
      });
      watch.queued();
      return { record, runId, events };
    } catch (error) {
      await events?.[Symbol.asyncIterator]().return?.();
      if (watch) await watch.finish();
      else await slot.release();
      if (queuing) {
        const reason = `The run could not be queued: ${error instanceof Error ? error.message : String(error)}`;
        await steps.unqueued?.(queuing, reason).catch(() => undefined);
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
    recordId: string,
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
      this.kind.channel(tenantId, recordId),
      (message) => {
        if (this.kind.isComplete(message)) void watch.finish();
      },
    );
    const watch: Watch = {
      queued: () => {
        if (finishing) return;
        timer = setInterval(() => {
          void this.deps.queue.state(tenantId, this.kind.queue, runId).then(
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
  private async run(job: RunningJob<Data>): Promise<void> {
    const { store, log } = this.deps;
    const data = job.data;
    const slot = await adoptSlot(store.idempotency, data.tenantId, data.slotKey, data.runId);
    let end: JobRunEnd;
    try {
      end = await this.kind.attempt(data, {
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
      log.error(`${this.kind.label} interrupted`, {
        runId: data.runId,
        attempt: job.attempt,
        error,
      });
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
        log.warn(`${this.kind.label} failed`, {
          runId: data.runId,
          attempt: job.attempt,
          failure: end.failure,
        });
        throw new Error(end.failure);
    }
  }

  /** Every attempt failed (the model kept failing, or the worker kept dying): say so. */
  private async failed(state: JobState & { data: Data }): Promise<void> {
    const data = state.data;
    const times = state.attempts === 1 ? 'once' : `${state.attempts} times`;
    const reason = `The run stopped ${times} and was given up: ${state.error ?? 'unknown error'} ${this.kind.keptWords}`;
    await releaseSlot(this.deps.store.idempotency, data.tenantId, data.slotKey, data.runId);
    await this.watches.get(data.runId)?.finish();
    await this.kind.giveUp(data, reason);
  }

  /**
   * Stops renewing what this process holds for runs it started (Runtime.close(), after the
   * queue handed its running jobs back): their workers keep them, or they lapse within a lease.
   */
  close(): void {
    for (const watch of [...this.watches.values()]) watch.drop();
  }
}
