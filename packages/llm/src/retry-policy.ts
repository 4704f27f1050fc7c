// Whether a failed provider attempt is retried, and after how long. Pure: the client does the
// waiting, so every branch here is testable without timers.
import type { SafetyBlock } from './provider';

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
  /** Set when a safety filter stopped the answer (never `retryable` by itself). */
  safetyBlock?: SafetyBlock | undefined;
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
  /** Whether the call already retried a blocked candidate (it gets one such retry). */
  candidateBlockRetried?: boolean;
  /** The subject of failure messages, e.g. "GOOGLE call for planning". */
  subject: string;
  policy: BackoffPolicy;
}): RetryDecision {
  const { failure, retry, subject, policy } = args;
  // A candidate stopped by the safety filter depends on the sampled output, so a second sample
  // often passes; a blocked prompt is blocked again whatever the model samples. So a blocked
  // candidate gets one retry per call from the usual budget, and when the retry is blocked too
  // the failure is not retryable: answerWithRepair asks once more rephrased, and a block there
  // is the model's refusal of this request (the agent's LLM_REFUSED).
  const retryOnce = failure.safetyBlock === 'candidate' && args.candidateBlockRetried !== true;
  if ((!failure.retryable && !retryOnce) || args.retriesLeft <= 0) {
    const tried = retry === 0 ? '' : ` after ${retry} ${retry === 1 ? 'retry' : 'retries'}`;
    return {
      retry: false,
      message: `${subject} failed${tried}: ${failure.message}`,
      // A first blocked candidate the spent budget left unsampled is no refusal yet: the
      // request may be sent again.
      retryable: failure.retryable || retryOnce,
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
