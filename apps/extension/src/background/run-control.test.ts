import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunControl, RunStopped, sleep, within } from './run-control';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A promise and the functions that settle it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('sleep', () => {
  it('resolves after the time has passed', async () => {
    let done = false;
    const waiting = sleep(1_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });

  it('ends at once with RunStopped when the signal aborts', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(RunStopped);
  });

  it('does not start when the signal already aborted', async () => {
    await expect(sleep(10, AbortSignal.abort())).rejects.toBeInstanceOf(RunStopped);
  });

  it('calls onSlice between slices of a long wait (a worker that makes no call is stopped)', async () => {
    const onSlice = vi.fn();
    const waiting = sleep(50_000, undefined, { sliceMs: 20_000, onSlice });
    await vi.advanceTimersByTimeAsync(50_000);
    await waiting;
    expect(onSlice).toHaveBeenCalledTimes(2);
  });
});

describe('within', () => {
  it('settles with the work, or after the time limit when the work hangs', async () => {
    await within(1_000, Promise.reject(new Error('ignored')));
    let done = false;
    const waiting = within(1_000, new Promise(() => undefined)).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1_000);
    await waiting;
    expect(done).toBe(true);
  });
});

describe('RunControl', () => {
  it('hands nothing to the tab once stopped', async () => {
    const control = new RunControl();
    await control.stop();
    const start = vi.fn(async () => 'ran');
    expect(() => control.execute(start)).toThrow(RunStopped);
    expect(start).not.toHaveBeenCalled();
    expect(() => control.check()).toThrow(RunStopped);
  });

  it('makes Stop wait for an action already handed to the tab', async () => {
    const control = new RunControl();
    const action = deferred<string>();
    void control.execute(() => action.promise);
    let stopped = false;
    const stopping = control.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(control.stopped).toBe(true);
    expect(stopped).toBe(false);
    action.resolve('done');
    await stopping;
    expect(stopped).toBe(true);
  });

  it('waits at most maxWaitMs for a tab that never answers', async () => {
    const control = new RunControl();
    void control.execute(() => new Promise(() => undefined));
    const stopping = control.stop(2_000);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(stopping).resolves.toBeUndefined();
  });

  it('does not wait for an action that already settled', async () => {
    const control = new RunControl();
    await control.execute(async () => 'done');
    await expect(control.stop(60_000)).resolves.toBeUndefined();
  });

  it('guards a read: its outcome, or RunStopped at once on Stop', async () => {
    const control = new RunControl();
    expect(await control.guard(Promise.resolve(3))).toBe(3);
    const hanging = control.guard(new Promise(() => undefined));
    void control.stop();
    await expect(hanging).rejects.toBeInstanceOf(RunStopped);
    await expect(control.guard(Promise.resolve(4))).rejects.toBeInstanceOf(RunStopped);
  });

  it('aborts its signal (the request in flight) on Stop', async () => {
    const control = new RunControl();
    const aborted = vi.fn();
    control.signal.addEventListener('abort', aborted);
    await control.stop();
    expect(aborted).toHaveBeenCalledOnce();
  });
});
