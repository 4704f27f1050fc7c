// waitForStability (docs/specs.md, "stability wait"): after an action, wait until the network
// is idle and the DOM has settled, at least minimumWaitMs and at most maximumWaitMs, so the
// next capture sees the result rather than a spinner.
import type { Realm } from '../dom/realm';
import type { DomActivity } from './dom-activity';
import { watchDom } from './dom-activity';
import type { NetworkMonitor } from './network';
import { networkMonitor, pendingRequests } from './network';

export interface StabilityOptions {
  /** No request in flight and none finished for this long. */
  networkIdleMs: number;
  /** No DOM mutation (and no URL change) for this long. */
  domSettledMs: number;
  minimumWaitMs: number;
  maximumWaitMs: number;
}

export const STABILITY_DEFAULTS: StabilityOptions = {
  networkIdleMs: 500,
  domSettledMs: 300,
  minimumWaitMs: 500,
  maximumWaitMs: 5000,
};

export interface StabilityResult {
  /** false when maximumWaitMs was reached first (capture anyway: better than hanging). */
  stable: boolean;
  waitedMs: number;
  didNetworkOccur: boolean;
  didDomMutate: boolean;
  didUrlChange: boolean;
}

/**
 * Requests already open this long when a wait starts are long polls or streams the action did
 * not cause; they would otherwise hold every wait to the maximum.
 */
const LONG_POLL_MS = 2000;
const TICK_MS = 50;

export interface WaitContext {
  win?: Realm;
  /** Reuse an activity watcher started earlier (observeAction starts it before the action). */
  dom?: DomActivity;
  /** activityCount of the monitor when the observation started. */
  networkBaseline?: number;
}

function longPolls(monitor: NetworkMonitor, now: number): Set<string> {
  const ignored = new Set<string>();
  for (const [id, started] of monitor.inFlight) if (now - started >= LONG_POLL_MS) ignored.add(id);
  return ignored;
}

export async function waitForStability(
  options: Partial<StabilityOptions> = {},
  context: WaitContext = {},
): Promise<StabilityResult> {
  const settings = { ...STABILITY_DEFAULTS, ...options };
  const win = context.win ?? window;
  const now = () => win.performance.now();
  const started = now();
  const monitor = networkMonitor(win);
  const baseline = context.networkBaseline ?? monitor.activityCount;
  const ignored = longPolls(monitor, started);
  const dom = context.dom ?? watchDom(win);
  const ownWatcher = context.dom === undefined;
  // A fresh watcher has seen nothing yet; the DOM counts as settled only after domSettledMs.
  if (ownWatcher) dom.lastChange = started;

  try {
    for (;;) {
      await new Promise<void>((resolve) => win.setTimeout(resolve, TICK_MS));
      dom.sync();
      const t = now();
      const waited = t - started;
      const networkIdle =
        pendingRequests(monitor, ignored) === 0 &&
        t - monitor.lastActivity >= settings.networkIdleMs;
      const domSettled = t - dom.lastChange >= settings.domSettledMs;
      const stable = waited >= settings.minimumWaitMs && networkIdle && domSettled;
      if (stable || waited >= settings.maximumWaitMs) {
        return {
          stable,
          waitedMs: Math.round(waited),
          didNetworkOccur: monitor.activityCount > baseline,
          didDomMutate: dom.mutated,
          didUrlChange: dom.urlChanged,
        };
      }
    }
  } finally {
    if (ownWatcher) dom.disconnect();
  }
}
