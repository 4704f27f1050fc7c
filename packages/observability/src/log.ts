// The logger shape observability writes to. Structurally the agent's AgentLogger and the
// server's Logger, so either can be passed without an adapter (and without this package
// importing them: agent and server depend on us, not the other way round).
export interface ObservabilityLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentObservabilityLogger: ObservabilityLogger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};

export interface RateLimitedLog {
  /**
   * Logs `message` the first time `key` fails, then at most once per interval with the count
   * of failures it held back. A LangFuse outage fails every export and every score batch; one
   * line a minute says so without drowning the request logs.
   */
  report(
    key: string,
    level: 'warn' | 'error',
    message: string,
    fields?: Record<string, unknown>,
  ): void;
}

export function createRateLimitedLog(
  log: ObservabilityLogger,
  options: { intervalMs?: number; now?: () => number } = {},
): RateLimitedLog {
  const intervalMs = options.intervalMs ?? 60_000;
  const now = options.now ?? Date.now;
  const state = new Map<string, { lastAt: number; suppressed: number }>();
  return {
    report(key, level, message, fields) {
      const t = now();
      const s = state.get(key);
      if (s && t - s.lastAt < intervalMs) {
        s.suppressed += 1;
        return;
      }
      const suppressed = s?.suppressed ?? 0;
      state.set(key, { lastAt: t, suppressed: 0 });
      try {
        log[level](message, suppressed > 0 ? { ...fields, suppressed } : fields);
      } catch {
        // A broken logger must not turn a tracing failure into a request failure.
      }
    },
  };
}

/** A short, loggable description of anything thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
