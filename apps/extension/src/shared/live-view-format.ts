// The words and numbers of the live view, as pure functions of the run state and the clock,
// so each rule is unit tested and the popup and the side panel say exactly the same thing.
import {
  formatCount,
  type CollectedCounts,
  type ExtractionProgress,
  type RoutineRunInfo,
} from '@tandem/contracts';
import { isActiveStatus, type RunState, type RunWait } from './run-state';

export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

/** "45s", "1m 05s", "2h 03m": short enough for one line next to the other numbers. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

/**
 * Micro-dollars as dollars. A task typically costs fractions of a cent, so small amounts keep
 * four decimals instead of rounding to a misleading "$0.00".
 */
export function formatCost(microUsd: number): string {
  if (microUsd <= 0) return '$0.00';
  if (microUsd < 100) return '<$0.0001';
  const usd = microUsd / 1_000_000;
  const fine = usd.toFixed(4);
  return Number(fine) < 0.01 ? `$${fine}` : `$${usd.toFixed(2)}`;
}

/** Whole seconds left until `until` (rounded up, never negative). */
export const secondsLeft = (until: number, now: number): number =>
  Math.max(0, Math.ceil((until - now) / 1000));

/** The wait's line with its countdown: "Waiting 12s (rate limit)". */
export function waitText(wait: RunWait, now: number): string {
  const s = secondsLeft(wait.until, now);
  if (s === 0) return 'Retrying…';
  switch (wait.reason) {
    case 'rate_limit':
      return `Waiting ${s}s (rate limit)`;
    case 'server_unavailable':
      return `Server unreachable, retrying in ${s}s${wait.attempt > 1 ? ` (attempt ${wait.attempt})` : ''}`;
    case 'busy':
      return `Server still busy with this task, retrying in ${s}s`;
  }
}

/** How the status line reads and looks; `tone` picks its colour. */
export interface StatusLine {
  text: string;
  tone: 'idle' | 'busy' | 'stopping' | 'wait' | 'ask' | 'ok' | 'bad';
}

/** Whether the run can still act (and so can be stopped). */
export const isActive = (run: RunState | null): run is RunState => isActiveStatus(run?.status);

/**
 * Whether "Stopping…" still holds after the run changed: until the run can no longer act, and
 * never for a different run (a new Start after the stop).
 */
export function stillStopping(
  stopping: boolean,
  before: RunState | null,
  after: RunState | null,
): boolean {
  return (
    stopping &&
    isActive(after) &&
    before !== null &&
    before.startedAt === after.startedAt &&
    before.goal === after.goal
  );
}

/**
 * The status line. `stopping` is the page's own knowledge that Stop was pressed: the run still
 * says running until the loop has written "stopped", and people must see that Stop registered.
 */
export function statusLine(
  run: RunState | null,
  view: { now: number; stopping: boolean; empty: string },
): StatusLine {
  if (!run) return { text: view.empty, tone: 'idle' };
  if (isActive(run) && view.stopping) return { text: 'Stopping…', tone: 'stopping' };
  switch (run.status) {
    case 'running':
      return run.wait
        ? { text: waitText(run.wait, view.now), tone: 'wait' }
        : { text: 'Working…', tone: 'busy' };
    case 'needs_input':
      return { text: 'Waiting for your answer', tone: 'ask' };
    case 'needs_approval':
      return { text: 'Waiting for your approval', tone: 'ask' };
    case 'stopped':
      return { text: 'Stopped.', tone: 'idle' };
    case 'completed':
      return { text: 'Done.', tone: 'ok' };
    case 'failed':
      return { text: 'The task failed.', tone: 'bad' };
    case 'error':
      return { text: 'Something went wrong.', tone: 'bad' };
  }
}

/** Time the task has taken: ticking while it runs, frozen at its last write once it stopped. */
export function elapsedMs(run: RunState, now: number): number | null {
  if (run.startedAt === undefined) return null;
  const end = run.status === 'running' ? now : run.updatedAt;
  return Math.max(0, end - run.startedAt);
}

/**
 * "1m 05s · 6 steps · 7 requests · 12,345 tokens · $0.0123": only what the run knows. A run
 * that ended before the server answered anything (refused at once: no model configured, a bad
 * key) has no numbers worth showing, as "0s · 0 requests" would read like a stalled run; the
 * line says instead that the page was left as it was, and the error below says why.
 */
export function metaLine(run: RunState, now: number): string {
  if (!isActiveStatus(run.status) && run.steps.length === 0 && (run.requests ?? 0) === 0)
    return run.startedAt === undefined
      ? ''
      : 'Ended before any step: nothing was done on the page.';
  const parts: string[] = [];
  const elapsed = elapsedMs(run, now);
  if (elapsed !== null) parts.push(formatDuration(elapsed));
  if (run.steps.length > 0) parts.push(plural(run.steps.length, 'step'));
  if (run.requests !== undefined) parts.push(plural(run.requests, 'request'));
  if (run.usage) parts.push(plural(run.usage.totalTokens, 'token'));
  if (run.usage?.costMicroUsd !== undefined) parts.push(formatCost(run.usage.costMicroUsd));
  return parts.join(' · ');
}

/** The larger of each type's count: live server events can run ahead of the stored run. */
export function mergeCounts(stored: CollectedCounts, live: CollectedCounts): CollectedCounts {
  const merged: CollectedCounts = { ...stored };
  for (const [type, n] of Object.entries(live)) merged[type] = Math.max(merged[type] ?? 0, n);
  return merged;
}

export const totalCount = (counts: CollectedCounts): number =>
  Object.values(counts).reduce((a, b) => a + b, 0);

/**
 * One running line for collecting: "Collected 12 of 25 items · 3 duplicates skipped", the
 * types spelled out (largest first) when there are several. Null when nothing was collected or skipped yet.
 */
export function collectedLine(
  counts: CollectedCounts,
  duplicates = 0,
  target?: number,
): string | null {
  const total = totalCount(counts);
  if (total === 0 && duplicates === 0) return null;
  const head =
    target !== undefined && target > 0
      ? `Collected ${formatCount(total)} of ${plural(target, 'item')}`
      : `Collected ${plural(total, 'item')}`;
  // Largest first: storage does not keep the order in which types were first collected.
  const types = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a, m], [b, n]) => n - m || a.localeCompare(b));
  const kinds =
    types.length > 1 ? ` (${types.map(([t, n]) => `${t}: ${formatCount(n)}`).join(', ')})` : '';
  const skipped = duplicates > 0 ? ` · ${plural(duplicates, 'duplicate')} skipped` : '';
  return `${head}${kinds}${skipped}`;
}

/**
 * One extraction in plain language: "Extracted 119 items from 3 pages", "Extracted data from
 * 1 page" when the data is not a list (items is null), and a note when a chunk failed, so
 * people know the download misses something.
 */
export function extractionLine(
  extraction: Pick<ExtractionProgress, 'items' | 'pages' | 'isPartial'>,
): string {
  const what = extraction.items === null ? 'data' : plural(extraction.items, 'item');
  // A count of zero pages says nothing worth reading.
  const from = extraction.pages > 0 ? ` from ${plural(extraction.pages, 'page')}` : '';
  const partial = extraction.isPartial ? ' (partial: part of a page failed)' : '';
  return `Extracted ${what}${from}${partial}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "12 Nov": the day a routine was saved, in the browser's time zone. English month names of our
 * own rather than toLocaleDateString, so the popup and the banner read the same everywhere the
 * rest of the extension's English does. Null for a date that cannot be read.
 */
export function savedDate(iso: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return `${date.getDate()} ${MONTHS[date.getMonth()]}`;
}

/**
 * The routine banner's line: "Running routine “Add patient” (saved 12 Nov) · 1 model call ·
 * step 3/5 · healed step 2". Steps are counted from 1 here, as people count them.
 */
export function routineLine(info: RoutineRunInfo): string {
  const saved = savedDate(info.savedAt);
  const parts = [
    `Running routine “${info.name}”${saved ? ` (saved ${saved})` : ''}`,
    plural(info.modelCalls, 'model call'),
    // The step under way, counted from 1 (`done` counts the steps behind it).
    info.done >= info.steps
      ? `all ${formatCount(info.steps)} steps done`
      : `step ${formatCount(info.done + 1)} of ${formatCount(info.steps)}`,
  ];
  if (info.healed.length > 0)
    parts.push(
      `healed ${info.healed.length === 1 ? 'step' : 'steps'} ${info.healed.map((i) => i + 1).join(', ')}`,
    );
  return parts.join(' · ');
}

/** Why the routine stopped, and that the task goes on without it. */
export const routineFallbackLine = (fellBack: string): string =>
  `Routine stopped: ${fellBack}; the agent continues.`;

/** `?tab=<id>` in a page's query: tests point the popup and the panel at a tab with it. */
export function tabFromQuery(search: string): number | null {
  const raw = new URLSearchParams(search).get('tab');
  if (raw === null || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
