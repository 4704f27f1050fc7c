// Spec 003 §D KPIs next to their targets; a card turns red past its alert threshold. Every
// value shows its sample count, and "—" when there was nothing to measure.
import {
  KPI_TARGETS,
  type LatencyMetric,
  type MetricsResponse,
  type RateMetric,
} from '@tandem/contracts';
import { formatInt, formatMs, formatRate } from './format';

type Verdict = 'ok' | 'alert' | '';

function rateCard(
  title: string,
  metric: RateMetric,
  target: { target: number; alertBelow: number },
) {
  const verdict: Verdict =
    metric.rate === null
      ? ''
      : metric.rate < target.alertBelow
        ? 'alert'
        : metric.rate >= target.target
          ? 'ok'
          : '';
  return (
    <div className={`kpi ${verdict}`} key={title}>
      <span>{title}</span>
      <b>{formatRate(metric.rate)}</b>
      <span className="muted">
        {formatInt(metric.successes)} / {formatInt(metric.samples)} · target ≥{' '}
        {formatRate(target.target)}
      </span>
    </div>
  );
}

function latencyCard(
  title: string,
  metric: LatencyMetric,
  target: { target: number; alertAbove: number } | null,
) {
  const verdict: Verdict =
    metric.p95Ms === null || target === null
      ? ''
      : metric.p95Ms > target.alertAbove
        ? 'alert'
        : metric.p95Ms < target.target
          ? 'ok'
          : '';
  return (
    <div className={`kpi ${verdict}`} key={title}>
      <span>{title}</span>
      <b>
        {formatMs(metric.p50Ms)} / {formatMs(metric.p95Ms)}
      </b>
      <span className="muted">
        p50 / p95 · {formatInt(metric.samples)} steps
        {target ? ` · p95 target < ${formatMs(target.target)}` : ''}
      </span>
    </div>
  );
}

export function KpiCards({ metrics }: { metrics: MetricsResponse }) {
  return (
    <section className="kpis" aria-label="Key metrics">
      {rateCard('Task completion', metrics.taskCompletion, KPI_TARGETS.taskCompletion)}
      {latencyCard('Step latency', metrics.stepLatency, KPI_TARGETS.p95LatencyMs)}
      {latencyCard(
        'SIMPLE latency',
        metrics.latencyByComplexity.SIMPLE,
        KPI_TARGETS.simpleLatencyMs,
      )}
      {latencyCard('COMPLEX latency', metrics.latencyByComplexity.COMPLEX, null)}
      {rateCard('Chain success', metrics.chainSuccess, KPI_TARGETS.chainSuccess)}
      {rateCard(
        'Verification success',
        metrics.verificationSuccess,
        KPI_TARGETS.verificationSuccess,
      )}
      {rateCard('Correction success', metrics.correctionSuccess, KPI_TARGETS.correctionSuccess)}
    </section>
  );
}
