// Document-extraction runs (an extraction's first run, a correction, a retry) are jobs of the
// job port (@tandem/jobs, queue "document-run"), as crawls are (knowledge-jobs.ts) and stacks
// are (stack-runs.ts); agent-runs.ts says who holds what while a run lasts. A process that dies
// mid-run stops renewing the job's lease and another worker takes the job over; the document
// tools saved each field as the agent went, so the new attempt asks the agent to continue from
// them (DocumentAgentService.runJob) instead of starting over.
import {
  extractionChannel,
  readRunBusMessage,
  type Caller,
  type DocumentAgentService,
  type DocumentRunJob,
  type NewExtractionInput,
  type RunStreamItem,
} from '@tandem/documents';
import type { DocumentExtraction } from '@tandem/store';
import {
  AgentRuns,
  type AgentRunData,
  type AgentRunDeps,
  type RunStart,
  type StartedAgentRun,
} from './agent-runs';
import { HttpError } from './http-error';

/** The job queue document runs go on. */
export const DOCUMENT_RUN_QUEUE = 'document-run';

/** The job's data: the run, and the tenant slot it holds (a lease key in the store). */
export type DocumentRunData = DocumentRunJob & AgentRunData;

export interface DocumentRunnerDeps extends AgentRunDeps {
  documents: DocumentAgentService;
}

/** The run's record, its id, and its events from the bus (a write's with its history seq). */
export type StartedRun = StartedAgentRun<DocumentExtraction, RunStreamItem>;

export class DocumentRunner {
  private readonly runs: AgentRuns<DocumentRunData>;

  constructor(private readonly deps: DocumentRunnerDeps) {
    const { documents } = deps;
    this.runs = new AgentRuns<DocumentRunData>(deps, {
      queue: DOCUMENT_RUN_QUEUE,
      label: 'document run',
      channel: extractionChannel,
      isComplete: (message) => {
        const item = readRunBusMessage(message);
        return item !== null && 'complete' in item.event;
      },
      attempt: (data, attempt) => documents.runJob(data, attempt),
      giveUp: (data, reason) => documents.failRun(data, reason),
      keptWords: 'What was saved so far is kept; retry to finish it.',
    });
  }

  /** Runs document runs in this process: the queue's worker. */
  serve(): void {
    this.runs.serve();
  }

  /** A new extraction of a document (uploaded now, or before) and its first run, queued. */
  async startExtraction(caller: Caller, input: NewExtractionInput): Promise<StartedRun> {
    return this.start(
      caller,
      { kind: 'extract' },
      {
        record: () => this.deps.documents.createExtraction(caller, input),
      },
    );
  }

  /** A correction in plain words, run on the extraction: 409 while another run goes on. */
  startCorrection(caller: Caller, extractionId: string, message: string): Promise<StartedRun> {
    return this.start(
      caller,
      { kind: 'correct', message },
      {
        record: () => this.deps.documents.extractionForRun(caller, extractionId),
      },
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
      {
        record: async () => {
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
        beforeQueue: (extraction) =>
          this.deps.documents.setRunStatus(caller, extraction.id, {
            status: 'in_progress',
            error: null,
          }),
      },
    );
  }

  private start(
    caller: Caller,
    run: Pick<DocumentRunJob, 'kind' | 'message' | 'resume'>,
    steps: Pick<
      RunStart<DocumentExtraction, RunStreamItem, DocumentRunData>,
      'record' | 'beforeQueue'
    >,
  ): Promise<StartedRun> {
    const { documents } = this.deps;
    return this.runs.start(caller, {
      ...steps,
      claimLock: (extraction, runId) => documents.claimRun(caller, extraction.id, runId),
      follow: (extraction) => documents.followExtraction(caller, extraction.id),
      data: (extraction) => ({ extractionId: extraction.id, ...run }),
      // Nothing will run it: the record says so (and may be retried), rather than showing an
      // extraction in progress forever. A correction leaves the extraction as it was.
      ...(run.kind === 'extract'
        ? {
            unqueued: (extraction: DocumentExtraction, reason: string) =>
              documents.setRunStatus(caller, extraction.id, { status: 'failed', error: reason }),
          }
        : {}),
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
