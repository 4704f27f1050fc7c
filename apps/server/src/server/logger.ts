// A small structured logger: one line per event, key=value bindings (tenant, task…) on every
// line of a child logger, and a redaction pass so secrets never reach the logs.
import type { Logger } from '@tandem/observability';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

type Fields = Record<string, unknown>;

const SECRET_KEY = /(authorization|api[-_]?key|secret|password|token|cookie)$/i;
const BEARER = /Bearer\s+[A-Za-z0-9._~+/=-]+/g;
const TANDEM_KEY = /tdm_[A-Za-z0-9_-]{10,}/g;

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.replace(BEARER, 'Bearer [redacted]').replace(TANDEM_KEY, 'tdm_[redacted]');
  }
  if (value instanceof Error) {
    return { name: value.name, message: redact(value.message), stack: redact(value.stack) };
  }
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Fields = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEY.test(k) && k !== 'tokens' ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}

function format(v: unknown): string {
  if (typeof v === 'string') return /[\s="]/.test(v) ? JSON.stringify(v) : v;
  if (v instanceof Error) return JSON.stringify(v.message);
  return JSON.stringify(v);
}

export function createLogger(
  level: LogLevel = 'info',
  bindings: Fields = {},
  sink: (line: string, level: LogLevel) => void = (line, l) =>
    (l === 'error' || l === 'warn' ? console.error : console.log)(line),
): Logger {
  const emit = (l: LogLevel, message: string, fields?: Fields) => {
    if (ORDER[l] < ORDER[level]) return;
    const all = redact({ ...bindings, ...fields }) as Fields;
    const pairs = Object.entries(all)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${format(v)}`);
    sink(
      [new Date().toISOString(), l.toUpperCase(), redact(message) as string, ...pairs].join(' '),
      l,
    );
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (more) => createLogger(level, { ...bindings, ...more }, sink),
  };
}
