// Network activity for the stability waiter and client observations.
//
// Two sources: (1) fetch/XMLHttpRequest wrappers that count requests in flight, and (2) a
// PerformanceObserver on resource entries, which sees everything the document loads but only
// once it finished. The wrappers announce requests as DOM events on the window, because an
// extension's content script runs in an isolated JS world whose fetch is not the page's: the
// page's requests are only visible if the wrappers are installed in the page's own world
// (dist/tandem-network.iife.js), and DOM events are what crosses between the worlds.
import type { Realm } from '../dom/realm';
import { worldGlobal } from '../dom/global-state';

export const NETWORK_EVENT = 'tandem-page:network';

interface Installed {
  nextId: number;
}

/** Wraps fetch and XHR in this JS world once; later calls are no-ops. */
export function installNetworkTracker(win: Realm = window): void {
  let fresh = false;
  const state = worldGlobal<Installed>(win, 'network-tracker', () => {
    fresh = true;
    return { nextId: 1 };
  });
  if (!fresh) return;

  const announce = (detail: string) => {
    win.dispatchEvent(new win.CustomEvent(NETWORK_EVENT, { detail }));
  };

  const originalFetch = win.fetch;
  if (typeof originalFetch === 'function') {
    const wrapped = function (this: unknown, ...args: Parameters<typeof fetch>) {
      const id = state.nextId++;
      announce(`start:${id}`);
      let result: Promise<Response>;
      try {
        result = originalFetch.apply(this, args);
      } catch (error) {
        announce(`end:${id}`);
        throw error;
      }
      result.then(
        () => announce(`end:${id}`),
        () => announce(`end:${id}`),
      );
      return result;
    };
    win.fetch = wrapped as typeof fetch;
  }

  const xhr = win.XMLHttpRequest as typeof XMLHttpRequest | undefined;
  if (xhr) {
    const originalSend = xhr.prototype.send;
    xhr.prototype.send = function (
      this: XMLHttpRequest,
      ...args: Parameters<XMLHttpRequest['send']>
    ) {
      const id = state.nextId++;
      announce(`start:${id}`);
      this.addEventListener('loadend', () => announce(`end:${id}`), { once: true });
      try {
        originalSend.apply(this, args);
      } catch (error) {
        announce(`end:${id}`);
        throw error;
      }
    };
  }
}

export interface NetworkMonitor {
  /** performance.now() of the last request start, end or finished resource; -Infinity if none. */
  lastActivity: number;
  /** Requests started (wrappers) + resources finished (observer) so far. */
  activityCount: number;
  /** Start times of requests in flight, by request id. */
  inFlight: Map<string, number>;
}

/** The per-world monitor, created on first use; it listens for as long as the page lives. */
export function networkMonitor(win: Realm = window): NetworkMonitor {
  return worldGlobal(win, 'network-monitor', () => {
    const monitor: NetworkMonitor = {
      lastActivity: -Infinity,
      activityCount: 0,
      inFlight: new Map(),
    };
    win.addEventListener(NETWORK_EVENT, (event) => {
      const detail = (event as CustomEvent<unknown>).detail;
      if (typeof detail !== 'string') return;
      const [kind, id] = detail.split(':');
      if (!id) return;
      const now = win.performance.now();
      monitor.lastActivity = now;
      if (kind === 'start') {
        monitor.inFlight.set(id, now);
        monitor.activityCount++;
      } else if (kind === 'end') {
        monitor.inFlight.delete(id);
      }
    });
    try {
      const observer = new win.PerformanceObserver((list) => {
        const entries = list.getEntries();
        if (entries.length === 0) return;
        monitor.lastActivity = win.performance.now();
        monitor.activityCount += entries.length;
      });
      observer.observe({ type: 'resource', buffered: false });
    } catch {
      // No resource timing here (very old engine): the wrappers alone report activity.
    }
    return monitor;
  });
}

/** Requests in flight, except those listed in `ignored` (long polls that predate the wait). */
export function pendingRequests(monitor: NetworkMonitor, ignored: ReadonlySet<string>): number {
  let count = 0;
  for (const id of monitor.inFlight.keys()) if (!ignored.has(id)) count++;
  return count;
}
