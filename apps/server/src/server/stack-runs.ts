// Stack runs (several documents into one table) are jobs of the job port (@tandem/jobs, queue
// "stack-run"), as document-extraction runs are (document-runs.ts); agent-runs.ts says who holds
// what while a run lasts. A stack run takes one of the same DOCUMENT_RUNS_PER_TENANT slots as
// an extraction run (429 beyond). A process that dies mid-run stops renewing the job's lease and
// another worker takes the job over; the stack tools saved each document's row as the agent went,
// so the new attempt asks the agent to extract only the documents without one
// (DocumentAgentService.runStackJob).
import {
  readStackBusMessage,
  stackChannel,
  type Caller,
  type DocumentAgentService,
  type NewStackInput,
  type StackRunJob,
} from '@tandem/documents';
import type { StackStreamEvent } from '@tandem/contracts';
import type { Stack } from '@tandem/store';
import {
  AgentRuns,
  type AgentRunData,
  type AgentRunDeps,
  type StartedAgentRun,
} from './agent-runs';

/** The job queue stack runs go on. */
export const STACK_RUN_QUEUE = 'stack-run';

/** The job's data: the run, and the tenant slot it holds (a lease key in the store). */
export type StackRunData = StackRunJob & AgentRunData;

export interface StackRunnerDeps extends AgentRunDeps {
  documents: DocumentAgentService;
}

/** The stack, the run's id, and its events from the bus, ending with `complete`. */
export type StartedStack = StartedAgentRun<Stack, StackStreamEvent>;

export class StackRunner {
  private readonly runs: AgentRuns<StackRunData>;

  constructor(private readonly deps: StackRunnerDeps) {
    const { documents } = deps;
    this.runs = new AgentRuns<StackRunData>(deps, {
      queue: STACK_RUN_QUEUE,
      label: 'stack run',
      channel: stackChannel,
      isComplete: (message) => {
        const event = readStackBusMessage(message);
        return event !== null && 'complete' in event;
      },
      attempt: (data, attempt) => documents.runStackJob(data, attempt),
      giveUp: (data, reason) => documents.failStackRun(data, reason),
      keptWords: 'The rows saved so far are kept.',
    });
  }

  /** Runs stack runs in this process: the queue's worker. */
  serve(): void {
    this.runs.serve();
  }

  /**
   * A new stack and its run, queued: 429 past the tenant's slots, 404 for a document that is
   * not the caller's.
   */
  start(caller: Caller, input: NewStackInput): Promise<StartedStack> {
    const { documents } = this.deps;
    return this.runs.start(caller, {
      record: () => documents.createStack(caller, input),
      claimLock: (stack, runId) => documents.claimStackRun(caller, stack.id, runId),
      follow: (stack) => documents.followStack(caller, stack.id),
      data: (stack) => ({ stackId: stack.id }),
      // Nothing will run it: the record says so, rather than showing a table in progress forever.
      unqueued: (stack, reason) =>
        documents.setStackStatus(caller, stack.id, { status: 'failed', error: reason }),
    });
  }

  /**
   * Stops renewing what this process holds for runs it started (Runtime.close(), after the
   * queue handed its running jobs back): their workers keep them, or they lapse within a lease.
   */
  close(): void {
    this.runs.close();
  }
}
