// The per-attempt limits on fake timers: a provider that ignores its signal is still cut off,
// and the provider's own signal tells it why.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attemptWithTimeout, sleepUnlessAborted } from './attempt-with-timeout';
import { ProviderError, zeroUsage, type ProviderResponse } from './provider';

const response: ProviderResponse = { text: '{}', usage: zeroUsage(), model: 'm' };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('attemptWithTimeout', () => {
  it("returns the provider's response and leaves its signal alone", async () => {
    let seen: AbortSignal | undefined;
    const result = await attemptWithTimeout({
      providerName: 'GOOGLE',
      timeoutMs: 1_000,
      signal: undefined,
      complete: (signal) => {
        seen = signal;
        return Promise.resolve(response);
      },
    });
    expect(result).toBe(response);
    expect(seen?.aborted).toBe(false);
    // The timer is cleared: nothing fires later.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('times out a provider that never answers, and aborts its signal with the reason', async () => {
    let seen: AbortSignal | undefined;
    const attempt = attemptWithTimeout({
      providerName: 'GOOGLE',
      timeoutMs: 1_000,
      signal: undefined,
      complete: (signal) => {
        seen = signal;
        return new Promise<ProviderResponse>(() => {});
      },
    });
    const outcome = expect(attempt).rejects.toMatchObject({
      kind: 'timeout',
      message: 'GOOGLE did not answer within 1000 ms.',
    });
    await vi.advanceTimersByTimeAsync(1_000);
    await outcome;
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBeInstanceOf(ProviderError);
  });

  it("ends at once when the caller aborts, passing the caller's reason on", async () => {
    const caller = new AbortController();
    let seen: AbortSignal | undefined;
    const attempt = attemptWithTimeout({
      providerName: 'GOOGLE',
      timeoutMs: 1_000,
      signal: caller.signal,
      complete: (signal) => {
        seen = signal;
        return new Promise<ProviderResponse>(() => {});
      },
    });
    caller.abort('request cancelled');
    await expect(attempt).rejects.toMatchObject({ kind: 'aborted' });
    expect(seen?.reason).toBe('request cancelled');
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes the provider's own failure through", async () => {
    const failure = new ProviderError('HTTP 503', { kind: 'http', status: 503 });
    await expect(
      attemptWithTimeout({
        providerName: 'GOOGLE',
        timeoutMs: 1_000,
        signal: undefined,
        complete: () => Promise.reject(failure),
      }),
    ).rejects.toBe(failure);
  });
});

describe('sleepUnlessAborted', () => {
  it('resolves after the delay', async () => {
    let done = false;
    const sleeping = sleepUnlessAborted(500, undefined).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(done).toBe(true);
  });

  it('rejects at once for an aborted signal, and mid-wait on abort', async () => {
    await expect(sleepUnlessAborted(500, AbortSignal.abort())).rejects.toThrow('aborted');
    const caller = new AbortController();
    const sleeping = sleepUnlessAborted(500, caller.signal);
    caller.abort();
    await expect(sleeping).rejects.toThrow('aborted');
    expect(vi.getTimerCount()).toBe(0);
  });
});
