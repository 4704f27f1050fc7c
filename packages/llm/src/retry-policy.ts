// Whether a failed provider attempt is retried, and after how long. Pure: the client does the
// waiting, so every branch here is testable without timers.

export interface BackoffPolicy {
  /** First backoff delay; doubles per retry. */
  baseDelayMs: number;
  /** Longest wait before a retry, and the cap on the exponential backoff. */
  maxDelayMs: number;
  /** Jitter source in [0, 1); only drawn when a retry is decided. */
  random: () => number;
}

/** The parts of a ProviderError the decision reads. */
export interface AttemptFailure {
  message: string;
  retryable: boolean;
  retryAfterMs: number | undefined;
}

export type RetryDecision =
  { retry: true; delayMs: number } | { retry: false; message: string; retryable: boolean };

/**
 * Exponential backoff with jitter in [50 %, 100 %] of the capped delay: enough spread that
 * concurrent calls hit by the same 429 don't come back in lockstep, never less than half.
 */
export function backoffDelayMs(retry: number, policy: BackoffPolicy): number {
  const capped = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return capped * (0.5 + policy.random() * 0.5);
}

export function decideRetry(args: {
  failure: AttemptFailure;
  /** Retries already made for this answer: 0 after its first attempt. */
  retry: number;
  /** What is left of the call's one retry budget. */
  retriesLeft: number;
  /** The subject of failure messages, e.g. "GOOGLE call for planning". */
  subject: string;
  policy: BackoffPolicy;
}): RetryDecision {
  const { failure, retry, subject, policy } = args;
  if (!failure.retryable || args.retriesLeft <= 0) {
    const tried = retry === 0 ? '' : ` after ${retry} ${retry === 1 ? 'retry' : 'retries'}`;
    return {
      retry: false,
      message: `${subject} failed${tried}: ${failure.message}`,
      retryable: failure.retryable,
    };
  }
  // An interactive agent can't sit out a minute-long quota window, and retrying earlier than
  // the provider asked would just be refused again: fail now, still marked retryable.
  if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxDelayMs) {
    return {
      retry: false,
      message:
        `${subject} failed: the provider asked to retry after ` +
        `${Math.ceil(failure.retryAfterMs / 1000)} s, longer than the ${policy.maxDelayMs} ms we wait. ` +
        failure.message,
      retryable: true,
    };
  }
  // The server's Retry-After is a floor: backing off less would only earn another 429.
  return {
    retry: true,
    delayMs: Math.max(failure.retryAfterMs ?? 0, backoffDelayMs(retry, policy)),
  };
}
