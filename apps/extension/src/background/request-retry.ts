// What the loop does when an interact request fails: wait and send it again, send it again
// under a fresh key or session, or give up. Pure, so every rule is tested without a clock.
import { ApiError } from '../shared/api-client';
import type { RunWait } from '../shared/run-state';

/** A request is retried for about this long in all before the run ends with the error. */
export const RETRY_BUDGET_MS = 3 * 60_000;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 10_000;
/** A Retry-After of 0 would make the retries a busy loop. */
const MIN_WAIT_MS = 500;

/**
 * Exponential backoff for the `attempt`-th wait (1-based): 1 s, 2 s, 4 s … at most 10 s,
 * jittered by ±20 % (`random` in [0, 1)) so that clients which failed together do not all
 * come back in the same second.
 */
export function backoffMs(attempt: number, random: number): number {
  const base = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(Math.min(MAX_BACKOFF_MS, base * (0.8 + 0.4 * random)));
}

/** Why a retryable error makes the loop wait, as the live view explains it. */
export function waitReason(error: ApiError): RunWait['reason'] {
  if (error.status === 429) return 'rate_limit';
  // TASK_BUSY, or our own request with this key still running on the server.
  if (error.status === 409) return 'busy';
  return 'server_unavailable';
}

export interface RetryContext {
  /** The wait this would be (1 for the first). */
  attempt: number;
  /** Since the request was first sent. */
  elapsedMs: number;
  random: number;
  /** The request was already sent again under a fresh key (or without its session). */
  resent: boolean;
  /** The request starts a task (no taskId) and names a session. */
  startsInSession: boolean;
  budgetMs?: number;
}

export type RetryDecision =
  | { kind: 'wait'; reason: RunWait['reason']; delayMs: number }
  /** The key was used for another body (a restarted worker captured the page anew). */
  | { kind: 'new_key' }
  /** The session the new goal continues is unknown to the server: start a new one. */
  | { kind: 'new_session' }
  | { kind: 'give_up' };

/**
 * The loop's move after `error`. A resend without a wait happens once per request at most;
 * waits stop once the next one would end past the budget. Retry-After wins over the backoff.
 */
export function retryDecision(error: unknown, context: RetryContext): RetryDecision {
  if (!(error instanceof ApiError)) return { kind: 'give_up' };
  if (!context.resent) {
    if (error.keyConflict === 'different_request') return { kind: 'new_key' };
    if (context.startsInSession && error.status === 404 && error.code === 'NOT_FOUND')
      return { kind: 'new_session' };
  }
  if (!error.retryable) return { kind: 'give_up' };
  const delayMs =
    error.retryAfterMs !== undefined
      ? Math.max(MIN_WAIT_MS, error.retryAfterMs)
      : backoffMs(context.attempt, context.random);
  if (context.elapsedMs + delayMs > (context.budgetMs ?? RETRY_BUDGET_MS))
    return { kind: 'give_up' };
  return { kind: 'wait', reason: waitReason(error), delayMs };
}
