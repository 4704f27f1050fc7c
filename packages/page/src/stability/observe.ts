// Client observations (docs/specs.md, "clientObservations"): what the client witnessed while an
// action ran, sent as `clientObservations` so verification knows whether anything happened at all.
import type { Realm } from '../dom/realm';
import type { ClientObservations } from '@tandem/contracts';
import { watchDom } from './dom-activity';
import { networkMonitor } from './network';
import type { StabilityOptions, StabilityResult } from './wait';
import { waitForStability } from './wait';

export interface Observation {
  readonly startedAt: number;
  /** Observations so far, without stopping. */
  peek(): ClientObservations;
  /** Waits for stability using this observation's watchers, so activity is counted from the start. */
  settle(options?: Partial<StabilityOptions>): Promise<StabilityResult>;
  /** Stops watching and returns the observations. */
  stop(): ClientObservations;
}

export function startObservation(win: Realm = window): Observation {
  const monitor = networkMonitor(win);
  const baseline = monitor.activityCount;
  const dom = watchDom(win);
  const startedAt = win.performance.now();
  let stopped: ClientObservations | undefined;
  const peek = (): ClientObservations => {
    if (stopped) return stopped;
    dom.sync();
    return {
      didNetworkOccur: monitor.activityCount > baseline,
      didDomMutate: dom.mutated,
      didUrlChange: dom.urlChanged,
    };
  };
  return {
    startedAt,
    peek,
    settle: (options) => waitForStability(options, { win, dom, networkBaseline: baseline }),
    stop() {
      if (!stopped) {
        stopped = peek();
        dom.disconnect();
      }
      return stopped;
    },
  };
}

export interface ObservedAction<T> {
  value: T;
  observations: ClientObservations;
  stability: StabilityResult | undefined;
}

/**
 * Runs `fn` (typically `() => execute(action)`), waits for stability unless `stability` is
 * false, and reports what happened from before the action to the end of the wait.
 */
export async function observeAction<T>(
  fn: () => T | Promise<T>,
  options: { stability?: Partial<StabilityOptions> | false; win?: Realm } = {},
): Promise<ObservedAction<T>> {
  const observation = startObservation(options.win ?? window);
  try {
    const value = await fn();
    const stability =
      options.stability === false ? undefined : await observation.settle(options.stability ?? {});
    return { value, observations: observation.stop(), stability };
  } finally {
    observation.stop();
  }
}
