// The logger every package writes to. The server's structured logger (apps/server
// logger.ts, with redaction) is the one implementation; the interact and document agents, the
// server's own modules and observability take it as these types, and tests pass silentLogger.
// Here rather than in the agent or the server: everything that logs depends on this package.
type Fields = Record<string, unknown>;

/** What code that only writes lines needs (observability's exporters, the usage service). */
export interface LogWriter {
  debug(message: string, fields?: Fields): void;
  info(message: string, fields?: Fields): void;
  warn(message: string, fields?: Fields): void;
  error(message: string, fields?: Fields): void;
}

/** A writer that also binds fields (tenant, task…) onto every line of a child. */
export interface Logger extends LogWriter {
  child(bindings: Fields): Logger;
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
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
  log: LogWriter,
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
