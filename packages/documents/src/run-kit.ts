// What extraction runs and stack runs share, built once from the service's deps: the run locks
// (claimed by the process that starts or queues a run, adopted by the job's worker), a run as
// one LangFuse trace, the model check that refuses a run before anything starts, publishing to
// followers on the event bus, and the run's model turns, pricing and logger. It holds no run
// state: each run's state lives in its own call (extraction-runs.ts, stack-extraction-runs.ts).
import { microUsdToUsd, priceUsage, silentLogger, type Logger } from '@tandem/observability';
import type { DocumentRecord } from '@tandem/store';
import { LlmNotConfiguredError, type LlmUsage } from '@tandem/llm';

import type { RunOutcome } from './agent-run';
import type { Caller, DocumentAgentDeps, JobAttempt, JobRunEnd } from './document-agent-service';
import { DocumentError } from './document-error';
import { adoptRunLock, claimRunLock, releaseRunLock, type HeldLock } from './run-lock';

export const DEFAULT_MAX_TURNS = 24;

export const USD = (microUsd: number) => microUsdToUsd(microUsd);

/**
 * How a job's attempt ended, from its run's outcome: a model failure is told to the followers
 * and returned, not recorded (the queue tries again; failRun records it when the queue gives up).
 */
export function jobEnd(outcome: RunOutcome, send: (event: { text: string }) => void): JobRunEnd {
  if (outcome.aborted) return { end: 'stopped' };
  if (outcome.failure !== null) {
    send({ text: `The run stopped: ${outcome.failure}` });
    return { end: 'failed', failure: outcome.failure };
  }
  return { end: 'finished' };
}

export class RunKit {
  readonly log: Logger;
  readonly maxTurns: number;
  readonly price: (model: string, usage: LlmUsage) => number;

  constructor(readonly deps: DocumentAgentDeps) {
    this.log = (deps.log ?? silentLogger).child({ component: 'document-agent' });
    this.maxTurns = deps.maxTurns ?? DEFAULT_MAX_TURNS;
    this.price = deps.price ?? ((model, usage) => priceUsage(model, usage));
  }

  requireModel(): void {
    if (!this.deps.llm.configured) {
      throw new DocumentError('LLM_NOT_CONFIGURED', new LlmNotConfiguredError().message);
    }
  }

  /**
   * Claims the run lock of `subject` (409 CONFLICT while another run holds it): for a run in
   * this process, or, with `runId`, for a job's run that its worker adopts (withRunLock).
   */
  lock(caller: Caller, subject: string, runId?: string): Promise<HeldLock> {
    return claimRunLock(
      this.deps.store.idempotency,
      caller.tenantId,
      subject,
      this.deps.lockLeaseMs,
      runId,
    );
  }

  /** Frees run `runId`'s lock of `subject` if it still holds it. */
  release(tenantId: string, subject: string, runId: string): Promise<void> {
    return releaseRunLock(this.deps.store.idempotency, tenantId, subject, runId);
  }

  /**
   * Runs one attempt of a job holding the run lock of `subject` that the run's id owns: adopted
   * from the process that queued it, or `superseded` when another run holds it now. `body` calls
   * `end` when the run has ended, which frees the lock before `complete` goes out (a client that
   * acts on the record at once finds it free); a stopped or failed attempt leaves the lock to the
   * next attempt (renewed by the process that queued it, else lapsing within a lease).
   */
  async withRunLock(
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

  /** Runs `work` as one LangFuse trace (when tracing is on). */
  async traced<T>(
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

  /**
   * Publishes a run's events on `topic` for followers anywhere, as `message` puts them on the
   * bus. A publish that fails is logged (`what` not published), never thrown: the run goes on.
   */
  publisher<A extends unknown[]>(
    topic: string,
    message: (...args: A) => unknown,
    what: string,
  ): (...args: A) => void {
    return (...args) => {
      this.deps.events
        ?.publish(topic, message(...args))
        .catch((error: unknown) => this.log.warn(`${what} not published`, { error }));
    };
  }

  readonly storeFailed = (error: unknown): void => {
    // The run itself never throws (driveRun catches); this is the store failing at the end.
    this.log.error('document run could not store its outcome', { error });
  };
}

/**
 * How a run that did not finish its job ended, for the user and the record. `fail`: the agent
 * gave up or ran out of turns (status failed); a crash keeps the status (in progress), with the
 * writes made so far, and the user can send a message to go on.
 */
export function endProblem(
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

/**
 * Only a read document has text to extract: 409 while its upload job reads it (try again when
 * GET /api/documents/{id} says `ready`), or after reading it failed.
 */
export function assertReady(document: DocumentRecord): void {
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
