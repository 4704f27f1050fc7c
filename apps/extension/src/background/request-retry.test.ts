import { describe, expect, it } from 'vitest';
import { ApiError } from '../shared/api-client';
import { backoffMs, RETRY_BUDGET_MS, retryDecision, type RetryContext } from './request-retry';

const first: RetryContext = {
  attempt: 1,
  elapsedMs: 0,
  random: 0.5,
  resent: false,
  startsInSession: false,
};
const rateLimited = (retryAfterMs?: number) =>
  new ApiError(429, 'RATE_LIMITED', 'slow down', retryAfterMs);

describe('backoffMs', () => {
  it('starts at 1 s and doubles, capped at 10 s', () => {
    expect([1, 2, 3, 4, 5, 9].map((attempt) => backoffMs(attempt, 0.5))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
  });

  it('is jittered by at most 20 % either way, and never past the cap', () => {
    expect(backoffMs(1, 0)).toBe(800);
    expect(backoffMs(1, 0.999)).toBeCloseTo(1_200, -1);
    expect(backoffMs(6, 0.999)).toBe(10_000);
  });
});

describe('retryDecision', () => {
  it('waits for Retry-After on a 429, and for the backoff when there is none', () => {
    expect(retryDecision(rateLimited(30_000), first)).toEqual({
      kind: 'wait',
      reason: 'rate_limit',
      delayMs: 30_000,
    });
    expect(retryDecision(rateLimited(), { ...first, attempt: 3 })).toEqual({
      kind: 'wait',
      reason: 'rate_limit',
      delayMs: 4_000,
    });
  });

  it('never waits less than half a second, whatever Retry-After says', () => {
    expect(retryDecision(rateLimited(0), first)).toMatchObject({ delayMs: 500 });
  });

  it('waits out an unreachable or failing server with the backoff', () => {
    for (const error of [
      new ApiError(0, 'NETWORK', 'Cannot reach'),
      new ApiError(500, 'INTERNAL_ERROR', 'oops'),
      new ApiError(503, 'SERVICE_UNAVAILABLE', 'starting'),
    ])
      expect(retryDecision(error, { ...first, attempt: 2 })).toEqual({
        kind: 'wait',
        reason: 'server_unavailable',
        delayMs: 2_000,
      });
  });

  it('waits for a busy task, or our own request still running under the key', () => {
    const inProgress = new ApiError(
      409,
      'CONFLICT',
      'A request with this idempotencyKey is still in progress.',
    );
    for (const error of [new ApiError(409, 'TASK_BUSY', 'busy'), inProgress])
      expect(retryDecision(error, first)).toEqual({ kind: 'wait', reason: 'busy', delayMs: 1_000 });
  });

  it('gives up once the next wait would end past the budget (about 3 minutes)', () => {
    const down = new ApiError(0, 'NETWORK', 'Cannot reach');
    const late = { ...first, attempt: 20, elapsedMs: RETRY_BUDGET_MS - 9_000 };
    expect(retryDecision(down, late)).toEqual({ kind: 'give_up' });
    expect(retryDecision(down, { ...late, elapsedMs: RETRY_BUDGET_MS - 10_000 })).toMatchObject({
      kind: 'wait',
    });
    expect(retryDecision(rateLimited(RETRY_BUDGET_MS + 1), first)).toEqual({ kind: 'give_up' });
  });

  it('gives up on what no wait fixes', () => {
    for (const error of [
      new ApiError(400, 'INVALID_ACTION', 'bad'),
      new ApiError(409, 'TASK_CANCELLED', 'cancelled'),
      new ApiError(503, 'LLM_NOT_CONFIGURED', 'no model'),
      // A safety block: the server failed the task, a resend would be refused.
      new ApiError(422, 'LLM_REFUSED', 'The language model refused to answer'),
      new Error('The page does not answer'),
      'thrown text',
    ])
      expect(retryDecision(error, first)).toEqual({ kind: 'give_up' });
  });

  it('sends again at once under a fresh key when the key was used for another body, once', () => {
    const reused = new ApiError(
      409,
      'CONFLICT',
      'idempotencyKey was already used for a different request.',
    );
    expect(retryDecision(reused, first)).toEqual({ kind: 'new_key' });
    expect(retryDecision(reused, { ...first, resent: true })).toEqual({ kind: 'give_up' });
  });

  it('starts a new session, once, when the session a new goal continues is unknown', () => {
    const unknown = new ApiError(404, 'NOT_FOUND', 'Session s not found.');
    const inSession = { ...first, startsInSession: true };
    expect(retryDecision(unknown, inSession)).toEqual({ kind: 'new_session' });
    expect(retryDecision(unknown, { ...inSession, resent: true })).toEqual({ kind: 'give_up' });
    // A task that continues (it has a taskId) and is not found is gone: nothing to resend.
    expect(retryDecision(unknown, first)).toEqual({ kind: 'give_up' });
  });
});
