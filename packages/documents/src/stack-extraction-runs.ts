// Stack runs: a table from several of the caller's documents, one row per document, filled by
// one agent run in the calling process (startStack) or as one attempt of a queued job
// (runStackJob, failStackRun), and the events that followers anywhere hear of it. The plumbing
// they share with extraction runs (locks, tracing, publishing, the model check) is the RunKit's.
import type { StackStreamEvent } from '@tandem/contracts';
import type { Stack } from '@tandem/store';

import { driveRun, type RunOutcome } from './agent-run';
import type {
  Caller,
  DocumentAgentDeps,
  JobAttempt,
  JobRunEnd,
  NewStackInput,
  Run,
  StackRunJob,
} from './document-agent-service';
import { DocumentError } from './document-error';
import { EventChannel } from './event-channel';
import type { HeldLock } from './run-lock';
import { assertReady, endProblem, jobEnd, USD, type RunKit } from './run-kit';
import {
  followStack,
  stackBusMessage,
  stackChannel,
  stackLockSubject,
  stackRunInProgress,
} from './stack-events';
import { createStackTools, STACK_EXTRACTION_SYSTEM, stackRequest } from './tools';

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

export class StackExtractionRuns {
  private readonly deps: DocumentAgentDeps;

  constructor(private readonly kit: RunKit) {
    this.deps = kit.deps;
  }

  /**
   * A table from several of the caller's documents, and the run that fills it, in the calling
   * process (this package's tests, and callers without a queue). On the server a stack's run is
   * a job (the server's stack-runs.ts queues it, runStackJob is its body), so a run whose
   * process dies is taken over by another.
   */
  async startStack(caller: Caller, input: NewStackInput): Promise<Run<Stack, StackStreamEvent>> {
    const stack = await this.createStack(caller, input);
    const lock = await this.kit.lock(caller, stackLockSubject(stack.id));
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
      .then(() => undefined, this.kit.storeFailed)
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
    this.kit.requireModel();
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
    return this.kit.lock(caller, stackLockSubject(stackId), runId);
  }

  /** Frees run `runId`'s stack lock if it still holds it (its job ended, or was never queued). */
  releaseStackRun(tenantId: string, stackId: string, runId: string): Promise<void> {
    return this.kit.release(tenantId, stackLockSubject(stackId), runId);
  }

  /**
   * One attempt of a queued stack run, in whichever process took the job; its events go on the
   * bus only. extract_row saves each document's row as the agent goes, so an attempt that finds
   * rows (its predecessor's worker died) asks the agent to extract only the documents without
   * one. A completed stack is never run again, and a model failure is returned, not recorded:
   * the queue tries again, and when it gives up, failStackRun marks the stack failed.
   */
  runStackJob(job: StackRunJob, attempt: JobAttempt): Promise<JobRunEnd> {
    return this.kit.withRunLock(job, stackLockSubject(job.stackId), attempt, 'stack run', (end) =>
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
    return jobEnd(outcome, send);
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
    return this.kit.traced(
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
        maxTurns: this.kit.maxTurns,
      },
      messages: [{ role: 'user', text: prompt }],
      emit: (event) => send(event),
      price: this.kit.price,
      addUsage: (usage) => this.deps.store.stacks.addUsage(caller.tenantId, stack.id, usage),
      log: this.kit.log,
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
    return this.kit.publisher(topic, stackBusMessage, 'stack event');
  }
}
