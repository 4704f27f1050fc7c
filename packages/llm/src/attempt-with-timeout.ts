// The time limits of one LLM call: each provider attempt is bounded by the per-attempt timeout
// and the caller's signal, and the wait between attempts ends early when the caller aborts.
import { ProviderError, type ProviderResponse } from './provider';

/**
 * One provider attempt bounded by the timeout and the caller's signal. Raced as well as
 * signalled, so a provider that ignores its signal still can't hold the call past the timeout.
 * Rejects with a ProviderError of kind 'timeout' or 'aborted' when a limit ends it.
 */
export async function attemptWithTimeout<R = ProviderResponse>(args: {
  /** Names the provider in the timeout message. */
  providerName: string;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  complete: (signal: AbortSignal) => Promise<R>;
}): Promise<R> {
  const controller = new AbortController();
  let cleanup = (): void => {};
  const stopped = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => {
      const error = new ProviderError(
        `${args.providerName} did not answer within ${args.timeoutMs} ms.`,
        { kind: 'timeout' },
      );
      reject(error);
      controller.abort(error);
    }, args.timeoutMs);
    const onAbort = (): void => {
      reject(new ProviderError('LLM call aborted by the caller.', { kind: 'aborted' }));
      controller.abort(args.signal?.reason);
    };
    args.signal?.addEventListener('abort', onAbort, { once: true });
    cleanup = () => {
      clearTimeout(timer);
      args.signal?.removeEventListener('abort', onAbort);
    };
  });
  const work = args.complete(controller.signal);
  // The loser of the race may still reject later; that must not become an unhandled rejection.
  work.catch(() => {});
  stopped.catch(() => {});
  try {
    return await Promise.race([work, stopped]);
  } finally {
    cleanup();
  }
}

/** Waits `ms`; rejects at once, or as soon as, the signal is aborted. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
