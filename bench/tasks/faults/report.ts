// What the fault proxy did in a run: faults injected per kind against their planned rates,
// and per task whether it still succeeded with the faults its calls met.
import type { MeasuredOutcome } from '../usage/nodes';
import { FAULT_KINDS, type FaultPlan } from './plan';
import { countFaults, type FaultEvent } from './proxy';

export interface FaultSummary {
  seed: number;
  /** Planned share of generateContent requests per kind, and in all. */
  rates: FaultPlan['rates'];
  plannedTotal: number;
  /** generateContent requests the proxy saw, and how many it faulted. */
  requests: number;
  faulted: number;
  injected: ReturnType<typeof countFaults>;
}

export function faultSummary(plan: FaultPlan, events: readonly FaultEvent[]): FaultSummary {
  const injected = countFaults(events);
  return {
    seed: plan.seed,
    rates: plan.rates,
    plannedTotal: plan.total,
    requests: events.length,
    faulted: events.filter((e) => e.kind !== null).length,
    injected,
  };
}

const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

/** The faults met by one task, as `kind×n` (or `none`). */
const metBy = (o: MeasuredOutcome) =>
  FAULT_KINDS.filter((k) => (o.faults?.[k] ?? 0) > 0)
    .map((k) => `${k}×${o.faults?.[k] ?? 0}`)
    .join(', ') || 'none';

/** Why a task failed: the extension's error, then what the server logged while it ran. */
const failure = (o: MeasuredOutcome) =>
  [
    `       ${o.detail.slice(0, 300)}`,
    ...o.serverErrors.map((e) => `       server: ${e.slice(0, 400)}`),
  ]
    .map((line) => `\n${line}`)
    .join('');

export function faultSection(summary: FaultSummary, outcomes: readonly MeasuredOutcome[]): string {
  const width = Math.max(...FAULT_KINDS.map((k) => k.length));
  const ok = outcomes.filter((o) => o.success).length;
  return [
    `faults (seed ${summary.seed}, planned ${pct(summary.plannedTotal)} of calls): ` +
      `${summary.faulted} of ${summary.requests} generateContent requests faulted ` +
      `(${summary.requests > 0 ? pct(summary.faulted / summary.requests) : 'n/a'})`,
    ...FAULT_KINDS.map(
      (k) =>
        `  ${k.padEnd(width)}  ${String(summary.injected[k]).padStart(4)}  (rate ${pct(summary.rates[k])})`,
    ),
    '',
    `per task under faults: ${ok}/${outcomes.length} succeeded`,
    ...outcomes.map(
      (o) =>
        `  ${o.success ? 'ok  ' : 'FAIL'} ${o.task.id.padEnd(22)} faults met: ${metBy(o)}` +
        (o.success ? '' : failure(o)),
    ),
  ].join('\n');
}
