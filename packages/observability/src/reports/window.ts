// Report windows: what "from/to" means for every admin report, resolved once so the billing
// table, the chart and the KPIs of one page always cover exactly the same instants.
import {
  REPORT_DEFAULT_DAYS,
  REPORT_MAX_DAYS,
  type ReportWindow,
  type ReportWindowQuery,
} from '@tandem/contracts';

export const DAY_MS = 24 * 60 * 60 * 1000;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A window the caller asked for that no report can answer (empty, reversed, too long). */
export class ReportWindowError extends Error {
  override readonly name = 'ReportWindowError';
}

export const isReportWindowError = (error: unknown): error is ReportWindowError =>
  error instanceof Error && error.name === 'ReportWindowError';

function instant(value: string, bound: 'from' | 'to'): number {
  // A date-only `to` reads as "through that day", which is what a person picking dates means.
  const ms = DATE_ONLY.test(value)
    ? Date.parse(`${value}T00:00:00.000Z`) + (bound === 'to' ? DAY_MS : 0)
    : Date.parse(value);
  if (Number.isNaN(ms)) throw new ReportWindowError(`\`${bound}\` is not a date: ${value}`);
  return ms;
}

/**
 * `from` inclusive, `to` exclusive. Missing `to` is now; missing `from` is `to` minus the
 * default span (30 days).
 */
export function resolveReportWindow(
  query: ReportWindowQuery,
  now: Date = new Date(),
): ReportWindow {
  const to = query.to === undefined ? now.getTime() : instant(query.to, 'to');
  const from =
    query.from === undefined ? to - REPORT_DEFAULT_DAYS * DAY_MS : instant(query.from, 'from');
  const fromIso = new Date(from).toISOString();
  const toIso = new Date(to).toISOString();
  if (from >= to) {
    throw new ReportWindowError(
      `Empty window: \`from\` (${fromIso}) must be before \`to\` (${toIso}, exclusive).`,
    );
  }
  if (to - from > REPORT_MAX_DAYS * DAY_MS) {
    throw new ReportWindowError(
      `Window too long: ${Math.ceil((to - from) / DAY_MS)} days from ${fromIso} to ${toIso}; at most ${REPORT_MAX_DAYS}.`,
    );
  }
  return { from: fromIso, to: toIso };
}

/** Every UTC day (yyyy-mm-dd) the window touches, oldest first. */
export function daysOf(window: ReportWindow): string[] {
  const days: string[] = [];
  const last = Date.parse(window.to) - 1;
  for (let t = Date.parse(window.from.slice(0, 10)); t <= last; t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}
