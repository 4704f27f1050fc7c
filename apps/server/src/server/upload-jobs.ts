// What the two kinds of uploaded file read as jobs share: knowledge uploads (knowledge-uploads.ts,
// queue "ingest") and document uploads (document-uploads.ts, queue "document-upload"). Each keeps
// its own record (a knowledge job, the document itself); the rules about attempts, the file's
// faults, waiting for the end, asking the queue again and the words a failure is told in are
// one, so a file fares the same whichever route it came in by.
import { isJobQueueUnavailableError, type JobQueue, type JobState } from '@tandem/jobs';
import { HttpError, mapError } from './http-error';

/**
 * Files one process reads at once. The parse pool bounds the CPU and memory they take (and
 * shares its threads fairly between tenants); this only keeps a process from holding many
 * 25 MB files in memory while they wait for a thread. Per queue.
 */
export const MAX_RUNNING_UPLOADS = 4;
export const UPLOAD_ATTEMPTS = 3;
export const UPLOAD_BACKOFF_MS = 2_000;
/** A failed (retryable) upload's file is kept this long for the Retry button. */
export const UPLOAD_KEPT_MS = 7 * 24 * 60 * 60 * 1000;
/** How often a waiting request reads the record, in case an event was missed. */
const WAIT_POLL_MS = 500;

/** Failures of the file itself: no retry reads it differently, so its bytes go at once. */
const FILE_FAULTS: ReadonlySet<string> = new Set([
  'BAD_REQUEST',
  'INPUT_TOO_COMPLEX',
  'PAYLOAD_TOO_LARGE',
  'VALIDATION_ERROR',
]);

export const isFileFault = (failureCode: string | null | undefined): boolean =>
  failureCode !== null && failureCode !== undefined && FILE_FAULTS.has(failureCode);

/** The 503 a request gets when the queue did not take its file. */
export const queueUnavailable = (): HttpError =>
  new HttpError(
    'SERVICE_UNAVAILABLE',
    'The job queue is unavailable, so the file could not be read; try again shortly.',
    { headers: { 'retry-after': '30' } },
  );

/** Says why a record could not be queued, or rethrows what is not the queue being down. */
export function notQueuedReason(error: unknown): string {
  if (!isJobQueueUnavailableError(error)) throw error;
  return `It could not be queued: ${error.message}`;
}

/**
 * How an attempt's error ends it. A 4xx is the file's (or the tenant's quota): the same next
 * time, so the upload fails for good with the contract's code and message. 429 is the parse pool
 * being full, and 5xx the store or the converter: worth another attempt (null).
 */
export function lastingFault(error: unknown): { code: string; message: string } | null {
  const mapped = mapError(error);
  const { code, message } = mapped.body.error;
  if (mapped.status >= 400 && mapped.status < 500 && code !== 'CONCURRENCY_LIMITED')
    return { code, message };
  return null;
}

/** The reason an upload failed after every attempt did. */
export function attemptsExhausted(state: JobState): string {
  const times = state.attempts === 1 ? 'once' : `${state.attempts} times`;
  const error = (state.error ?? 'unknown error').replace(/\.$/, '');
  return `Reading the file stopped ${times}: ${error}. It is kept for a retry.`;
}

/**
 * Asks the queue to read a failed upload again, after its record was reopened. A job the queue
 * never got (it was down at the start) is added; one it still holds waiting or active counts.
 * False: the queue would not take it.
 */
export async function requeue(
  queue: Pick<JobQueue, 'retry' | 'state'>,
  name: string,
  tenantId: string,
  id: string,
  enqueue: () => Promise<void>,
): Promise<boolean> {
  if (await queue.retry(tenantId, name, id)) return true;
  const state = await queue.state(tenantId, name, id);
  if (state !== null) return state.status === 'waiting' || state.status === 'active';
  await enqueue();
  return true;
}

/**
 * The record once `ended` says so, or as it is after `ms`: woken by its events (whichever process
 * reads the file), with a read of the store every WAIT_POLL_MS in case one was missed.
 */
export async function waitForEnd<T>(options: {
  read: () => Promise<T | null>;
  ended: (record: T) => boolean;
  /** Calls `wake` on an event that may have ended it; returns the unsubscribe. */
  subscribe: (wake: () => void) => () => void;
  ms: number;
}): Promise<T | null> {
  const deadline = Date.now() + options.ms;
  let wake: () => void = () => undefined;
  const unsubscribe = options.subscribe(() => wake());
  try {
    for (;;) {
      const record = await options.read();
      const left = deadline - Date.now();
      if (!record || options.ended(record) || left <= 0) return record;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(WAIT_POLL_MS, left));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    unsubscribe();
  }
}
