// Stop for one tab's loop, and the waits that Stop ends. The popup's "Stopped" must be true
// when it is shown: after Stop nothing new is handed to the tab, every request and wait
// ends at once, and an action the tab is already executing is waited for before `stopped` is
// written.

/** Thrown where the loop notices Stop; the loop then ends without writing anything. */
export class RunStopped extends Error {
  override readonly name = 'RunStopped';
  constructor() {
    super('The run was stopped.');
  }
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What the loop reads the time from and waits with; tests pass a fake one. */
export interface Timing {
  now(): number;
  sleep: Sleep;
  /** In [0, 1): the jitter of a backoff. */
  random(): number;
}

/**
 * Waits `ms`, in slices of at most `sliceMs` with `onSlice` called between them (the service
 * worker passes a chrome.* call: Chrome stops a worker that made none for 30 s, and a
 * Retry-After can be longer). Rejects with RunStopped as soon as `signal` aborts.
 */
export async function sleep(
  ms: number,
  signal?: AbortSignal,
  slicing: { sliceMs: number; onSlice: () => unknown } = { sliceMs: ms, onSlice: () => undefined },
): Promise<void> {
  let left = ms;
  do {
    const slice = Math.min(left, Math.max(1, slicing.sliceMs));
    await sleepOnce(slice, signal);
    left -= slice;
    if (left > 0) await slicing.onSlice();
  } while (left > 0);
}

function sleepOnce(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new RunStopped());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RunStopped());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const realTiming: Timing = { now: () => Date.now(), sleep, random: Math.random };

/** Settles when `work` settles or after `ms`, whichever is first; never rejects. */
export async function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work.then(noop, noop), timeout]);
  clearTimeout(timer);
}

const noop = (): void => undefined;

/** How long Stop waits for an action the tab is executing before it writes `stopped`. */
export const EXECUTE_SETTLE_MS = 10_000;

/** One tab's loop as Stop sees it: an abort signal and the action being executed, if any. */
export class RunControl {
  readonly #abort = new AbortController();
  #executing: Promise<unknown> | null = null;

  /** Aborts the loop's request and waits; passed to fetch. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  /** Throws RunStopped once Stop was pressed: called right before the loop touches the tab. */
  check(): void {
    if (this.stopped) throw new RunStopped();
  }

  /**
   * `work`'s outcome, or RunStopped as soon as Stop is pressed. For reads and waits only: what
   * `work` still does after Stop is ignored, so it must not change the page.
   */
  guard<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.stopped) {
        work.catch(noop);
        reject(new RunStopped());
        return;
      }
      const onAbort = () => reject(new RunStopped());
      this.signal.addEventListener('abort', onAbort, { once: true });
      void work
        .then(resolve, reject)
        .finally(() => this.signal.removeEventListener('abort', onAbort));
    });
  }

  /**
   * Hands an action to the tab unless Stop was pressed. The check and the hand-over happen in
   * one synchronous step, so a Stop either comes before (nothing runs) or waits for it.
   */
  execute<T>(start: () => Promise<T>): Promise<T> {
    this.check();
    // Registered before `start` runs, so that a Stop arriving while it runs waits for it.
    let settle = noop;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.#executing = settled;
    const done = () => {
      settle();
      if (this.#executing === settled) this.#executing = null;
    };
    try {
      const running = start();
      running.then(done, done);
      return running;
    } catch (error) {
      done();
      throw error;
    }
  }

  /**
   * Stop: nothing new starts, every request and wait ends now, and an action already handed
   * to the tab is waited for (at most `maxWaitMs`, so a tab that never answers cannot hold
   * Stop up) so that `stopped`, written next, is true.
   */
  async stop(maxWaitMs = EXECUTE_SETTLE_MS): Promise<void> {
    this.#abort.abort();
    if (this.#executing) await within(maxWaitMs, this.#executing);
  }
}
