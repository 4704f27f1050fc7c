// The rules both upload runners share, on their own; the runners' int tests (document-uploads,
// knowledge-uploads) drive them through the real queues.
import { JobQueueUnavailableError, type JobState } from '@tandem/jobs';
import { describe, expect, it } from 'vitest';
import { HttpError } from './http-error';
import { attemptsExhausted, lastingFault, notQueuedReason, requeue } from './upload-jobs';

const state = (attempts: number, error: string | null): JobState => ({
  queue: 'ingest',
  id: 'u1',
  tenantId: 't1',
  status: 'failed',
  attempts,
  maxAttempts: 3,
  error,
});

describe('upload jobs', () => {
  it('fails for good on the file, and tries again on a full pool or a server fault', () => {
    expect(lastingFault(new HttpError('INPUT_TOO_COMPLEX', 'Too many pages.'))).toStrictEqual({
      code: 'INPUT_TOO_COMPLEX',
      message: 'Too many pages.',
    });
    expect(lastingFault(new HttpError('CONCURRENCY_LIMITED', 'Busy.'))).toBeNull();
    expect(lastingFault(new Error('disk I/O error'))).toBeNull();
  });

  it('says how often reading stopped, with one full stop', () => {
    expect(attemptsExhausted(state(1, 'The worker died.'))).toBe(
      'Reading the file stopped once: The worker died. It is kept for a retry.',
    );
    expect(attemptsExhausted(state(3, null))).toBe(
      'Reading the file stopped 3 times: unknown error. It is kept for a retry.',
    );
  });

  it('names a queue that is down, and rethrows anything else', () => {
    expect(notQueuedReason(new JobQueueUnavailableError('Redis did not answer'))).toBe(
      'It could not be queued: Redis did not answer',
    );
    const other = new Error('bug');
    expect(() => notQueuedReason(other)).toThrow(other);
  });

  it('adds a job the queue never got, and counts one it still holds', async () => {
    let added = 0;
    const enqueue = async () => {
      added += 1;
    };
    const queue = (retried: boolean, held: JobState['status'] | null) => ({
      retry: async () => retried,
      state: async () => (held === null ? null : { ...state(1, null), status: held }),
    });
    expect(await requeue(queue(true, null), 'ingest', 't1', 'u1', enqueue)).toBe(true);
    expect(added).toBe(0);
    expect(await requeue(queue(false, null), 'ingest', 't1', 'u1', enqueue)).toBe(true);
    expect(added).toBe(1);
    expect(await requeue(queue(false, 'active'), 'ingest', 't1', 'u1', enqueue)).toBe(true);
    expect(await requeue(queue(false, 'completed'), 'ingest', 't1', 'u1', enqueue)).toBe(false);
    expect(added).toBe(1);
  });
});
