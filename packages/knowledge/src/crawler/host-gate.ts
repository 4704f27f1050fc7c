// Politeness per host: at most `concurrency` requests in flight to one host, and request starts
// at least `delayMs` apart. Every request the crawler makes (robots.txt, sitemaps, pages and
// each redirect hop) passes the gate, so a site sees one steady, bounded client.
import { setTimeout as sleep } from 'node:timers/promises';

interface HostState {
  active: number;
  /** Earliest time the next request may start; reserved by whoever queues first. */
  nextStart: number;
  /** When the last request really started (a stalled event loop can fire two timers at once). */
  lastStart: number;
  waiting: Array<() => void>;
}

export class HostGate {
  readonly #hosts = new Map<string, HostState>();

  constructor(
    private readonly concurrency: number,
    private readonly delayMs: number,
  ) {}

  /**
   * Resolves with a release function once a request to `host` may start. Rejects with the
   * signal's reason if it aborts while waiting, so a shutting-down crawl starts nothing new.
   */
  async acquire(host: string, signal?: AbortSignal): Promise<() => void> {
    const state = this.#stateOf(host);
    while (state.active >= this.concurrency) {
      await this.#waitForSlot(state, signal);
    }
    state.active += 1;
    const now = Date.now();
    const startAt = Math.max(now, state.nextStart);
    state.nextStart = startAt + this.delayMs;
    try {
      if (startAt > now) await sleep(startAt - now, undefined, { signal });
      // Timers only promise "not before": after a stall two reservations can wake together,
      // so the spacing is checked against the last real start too.
      for (let wait = state.lastStart + this.delayMs - Date.now(); wait > 0;) {
        await sleep(wait, undefined, { signal });
        wait = state.lastStart + this.delayMs - Date.now();
      }
      signal?.throwIfAborted();
      state.lastStart = Date.now();
    } catch (error) {
      this.#release(state);
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#release(state);
    };
  }

  #stateOf(host: string): HostState {
    let state = this.#hosts.get(host);
    if (!state) {
      state = { active: 0, nextStart: 0, lastStart: -Infinity, waiting: [] };
      this.#hosts.set(host, state);
    }
    return state;
  }

  #waitForSlot(state: HostState, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        state.waiting = state.waiting.filter((waiter) => waiter !== wake);
        reject(signal?.reason as Error);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      state.waiting.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #release(state: HostState): void {
    state.active -= 1;
    state.waiting.shift()?.();
  }
}
