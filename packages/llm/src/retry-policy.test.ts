// The retry decision as a pure function: every branch without a timer.
import { describe, expect, it, vi } from 'vitest';
import {
  backoffDelayMs,
  decideRetry,
  type AttemptFailure,
  type BackoffPolicy,
} from './retry-policy';

const policy = (random = (): number => 1, maxDelayMs = 30_000): BackoffPolicy => ({
  baseDelayMs: 500,
  maxDelayMs,
  random,
});
const transient: AttemptFailure = { message: 'HTTP 503', retryable: true, retryAfterMs: undefined };
const subject = 'GOOGLE call for planning';

describe('backoffDelayMs', () => {
  it('doubles per retry up to the cap', () => {
    expect(
      [0, 1, 2, 3].map((retry) =>
        backoffDelayMs(
          retry,
          policy(() => 1, 3_000),
        ),
      ),
    ).toEqual([500, 1_000, 2_000, 3_000]);
  });

  it('jitters between half and all of the delay', () => {
    expect(
      backoffDelayMs(
        1,
        policy(() => 0),
      ),
    ).toBe(500);
    expect(
      backoffDelayMs(
        1,
        policy(() => 0.5),
      ),
    ).toBe(750);
  });
});

describe('decideRetry: how long to wait', () => {
  it('retries a transient failure after the backoff', () => {
    expect(
      decideRetry({ failure: transient, retry: 1, retriesLeft: 2, subject, policy: policy() }),
    ).toEqual({ retry: true, delayMs: 1_000 });
  });

  it('waits at least as long as Retry-After asks', () => {
    const decision = decideRetry({
      failure: { ...transient, retryAfterMs: 4_000 },
      retry: 0,
      retriesLeft: 1,
      subject,
      policy: policy(),
    });
    expect(decision).toEqual({ retry: true, delayMs: 4_000 });
  });

  it('keeps the backoff when Retry-After asks for less', () => {
    const decision = decideRetry({
      failure: { ...transient, retryAfterMs: 100 },
      retry: 2,
      retriesLeft: 1,
      subject,
      policy: policy(),
    });
    expect(decision).toEqual({ retry: true, delayMs: 2_000 });
  });

  it('retries when Retry-After is exactly the longest wait', () => {
    const decision = decideRetry({
      failure: { ...transient, retryAfterMs: 30_000 },
      retry: 0,
      retriesLeft: 1,
      subject,
      policy: policy(),
    });
    expect(decision).toEqual({ retry: true, delayMs: 30_000 });
  });
});

describe('decideRetry: when to give up', () => {
  it('fails a permanent failure at once, without drawing jitter', () => {
    const random = vi.fn(() => 1);
    const decision = decideRetry({
      failure: { message: 'HTTP 400: bad schema', retryable: false, retryAfterMs: undefined },
      retry: 0,
      retriesLeft: 3,
      subject,
      policy: policy(random),
    });
    expect(decision).toEqual({
      retry: false,
      message: 'GOOGLE call for planning failed: HTTP 400: bad schema',
      retryable: false,
    });
    expect(random).not.toHaveBeenCalled();
  });

  it('fails a transient failure when the budget is spent, saying how many retries were made', () => {
    const spent = (retry: number) =>
      decideRetry({ failure: transient, retry, retriesLeft: 0, subject, policy: policy() });
    expect(spent(0)).toEqual({
      retry: false,
      message: 'GOOGLE call for planning failed: HTTP 503',
      retryable: true,
    });
    expect(spent(1)).toMatchObject({
      message: 'GOOGLE call for planning failed after 1 retry: HTTP 503',
    });
    expect(spent(3)).toMatchObject({
      message: 'GOOGLE call for planning failed after 3 retries: HTTP 503',
    });
  });

  it('retries a blocked candidate once per call, never a blocked prompt', () => {
    const blocked = (safetyBlock: 'prompt' | 'candidate'): AttemptFailure => ({
      message: 'blocked',
      retryable: false,
      retryAfterMs: undefined,
      safetyBlock,
    });
    const decide = (
      failure: AttemptFailure,
      candidateBlockRetried: boolean,
      retriesLeft = 3,
      retry = 0,
    ) =>
      decideRetry({
        failure,
        retry,
        retriesLeft,
        candidateBlockRetried,
        subject,
        policy: policy(),
      });
    expect(decide(blocked('candidate'), false)).toEqual({ retry: true, delayMs: 500 });
    expect(decide(blocked('candidate'), true, 3, 1)).toEqual({
      retry: false,
      message: 'GOOGLE call for planning failed after 1 retry: blocked',
      retryable: false,
    });
    // Out of the usual budget: no retry here, but a first block is no refusal yet, so the
    // request may be sent again.
    expect(decide(blocked('candidate'), false, 0)).toMatchObject({
      retry: false,
      retryable: true,
    });
    expect(decide(blocked('prompt'), false)).toEqual({
      retry: false,
      message: 'GOOGLE call for planning failed: blocked',
      retryable: false,
    });
  });

  it('fails, still retryable, when Retry-After is longer than the longest wait', () => {
    const decision = decideRetry({
      failure: { message: 'quota', retryable: true, retryAfterMs: 61_500 },
      retry: 0,
      retriesLeft: 3,
      subject,
      policy: policy(() => 1, 30_000),
    });
    expect(decision).toEqual({
      retry: false,
      message:
        'GOOGLE call for planning failed: the provider asked to retry after 62 s, longer than ' +
        'the 30000 ms we wait. quota',
      retryable: true,
    });
  });
});
