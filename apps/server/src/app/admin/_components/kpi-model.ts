// What the KPI cards show, as plain data: each spec 003 §D metric with its value, sample count
// and verdict against KPI_TARGETS. Kept apart from the markup so the rules (which way is good,
// when there is no data) are unit-tested.
import {
  KPI_TARGETS,
  type LatencyMetric,
  type MetricsResponse,
  type RateMetric,
} from '@tandem/contracts';
import { formatInt, formatMs, formatRate } from './format';

/** `ok` at or past the target, `alert` past the alert threshold, '' between or without data. */
export type Verdict = 'ok' | 'alert' | '';

/**
 * Samples a card with a target needs before it is judged. Below this a rate is mostly noise
 * (one SIMPLE task that finishes in one round trip makes "round-trip reduction" 0 %), and a
 * fresh install must not open on red cards: the card says how many it has and how many it needs.
 */
export const MIN_KPI_SAMPLES = 10;

/** Higher is better with `alertBelow` (null: the spec sets no alert); lower with `alertAbove`. */
export type KpiTarget =
  { target: number; alertBelow: number | null } | { target: number; alertAbove: number };

export interface KpiCard {
  title: string;
  value: string;
  /** The sample count (and what was counted), the target, any caveat; "no data" without samples. */
  detail: string;
  verdict: Verdict;
  /** Judged against a target, but from fewer than MIN_KPI_SAMPLES samples: shown, not judged. */
  tooFew: boolean;
}

export function verdictOf(value: number | null, target: KpiTarget | null): Verdict {
  if (value === null || target === null) return '';
  if ('alertAbove' in target) {
    if (value > target.alertAbove) return 'alert';
    return value < target.target ? 'ok' : '';
  }
  if (target.alertBelow !== null && value < target.alertBelow) return 'alert';
  return value >= target.target ? 'ok' : '';
}

function targetText(target: KpiTarget | null, format: (n: number) => string): string | null {
  if (target === null) return null;
  return 'alertAbove' in target
    ? `target < ${format(target.target)}`
    : `target ≥ ${format(target.target)}`;
}

const join = (...parts: (string | null)[]): string => parts.filter(Boolean).join(' · ');

/** Whether a card with a target has too few samples to be judged (none at all says "no data"). */
const tooFewFor = (samples: number, target: KpiTarget | null): boolean =>
  target !== null && samples > 0 && samples < MIN_KPI_SAMPLES;

const tooFewText = (samples: number, unit: string): string =>
  `not enough ${unit} yet to judge (${formatInt(samples)} of ${formatInt(MIN_KPI_SAMPLES)})`;

/** A rate card; `unit` names what `samples` counted ("tasks", "actions", "reviews"…). */
export function rateCard(
  title: string,
  metric: RateMetric,
  unit: string,
  target: KpiTarget | null,
  note: string | null = null,
): KpiCard {
  const tooFew = tooFewFor(metric.samples, target);
  const counted =
    metric.samples === 0
      ? 'no data'
      : `${formatInt(metric.successes)} / ${formatInt(metric.samples)} ${unit}`;
  return {
    title,
    value: formatRate(metric.rate),
    detail: join(
      counted,
      tooFew ? tooFewText(metric.samples, unit) : null,
      targetText(target, formatRate),
      note,
    ),
    verdict: tooFew ? '' : verdictOf(metric.rate, target),
    tooFew,
  };
}

/** A latency card: p50 / p95, judged on the p95. */
export function latencyCard(
  title: string,
  metric: LatencyMetric,
  target: KpiTarget | null,
): KpiCard {
  const p95Target = targetText(target, formatMs);
  const tooFew = tooFewFor(metric.samples, target);
  return {
    title,
    value: `${formatMs(metric.p50Ms)} / ${formatMs(metric.p95Ms)}`,
    detail: join(
      metric.samples === 0 ? 'no data' : `p50 / p95 · ${formatInt(metric.samples)} round trips`,
      tooFew ? tooFewText(metric.samples, 'round trips') : null,
      p95Target ? `p95 ${p95Target}` : null,
    ),
    verdict: tooFew ? '' : verdictOf(metric.p95Ms, target),
    tooFew,
  };
}

/** Every card of the dashboard, in the order of the spec's table (outcome, then by feature). */
export function kpiCards(metrics: MetricsResponse): KpiCard[] {
  const t = KPI_TARGETS;
  return [
    rateCard('Task completion', metrics.taskCompletion, 'tasks', t.taskCompletion),
    latencyCard('Step latency', metrics.stepLatency, t.p95LatencyMs),
    latencyCard('SIMPLE latency', metrics.latencyByComplexity.SIMPLE, t.simpleLatencyMs),
    latencyCard('COMPLEX latency', metrics.latencyByComplexity.COMPLEX, null),
    rateCard(
      'Classification accuracy',
      metrics.classificationAccuracy,
      'SIMPLE tasks',
      t.classificationAccuracy,
    ),
    rateCard('Chain success', metrics.chainSuccess, 'chains', t.chainSuccess),
    rateCard(
      'Round-trip reduction',
      metrics.roundTripReduction,
      'actions sent',
      t.roundTripReduction,
    ),
    rateCard('Re-plan frequency', metrics.replanFrequency, 'planned tasks', t.replanFrequency),
    rateCard('Critic catch rate', metrics.criticCatchRate, 'reviews', null),
    rateCard('Skill hit rate', metrics.skillHitRate, 'round trips', t.skillHitRate),
    rateCard(
      'Skill effectiveness',
      metrics.skillEffectiveness,
      'uses',
      t.skillEffectiveness,
      'all time',
    ),
    rateCard(
      'Verification success',
      metrics.verificationSuccess,
      'round trips',
      t.verificationSuccess,
    ),
    rateCard('Look-ahead hit rate', metrics.lookAheadHitRate, 'checks', null),
    rateCard('Early detection', metrics.earlyDetection, 'failures', null),
    rateCard('Correction success', metrics.correctionSuccess, 'corrections', t.correctionSuccess),
  ];
}
