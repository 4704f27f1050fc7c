// Spec 003 §D KPIs next to their targets; a card turns red past its alert threshold and green
// at its target, once it has enough samples to be judged (greyed out and saying so before).
// Every value shows its sample count, and "no data" when there was nothing to measure. What
// each card says is decided in kpi-model.ts.
import type { MetricsResponse } from '@tandem/contracts';
import { kpiCards } from './kpi-model';

export function KpiCards({ metrics }: { metrics: MetricsResponse }) {
  return (
    <section className="kpis" aria-label="Key metrics">
      {kpiCards(metrics).map((card) => (
        <div
          className={['kpi', card.verdict, card.tooFew ? 'few' : ''].filter(Boolean).join(' ')}
          key={card.title}
        >
          <span>{card.title}</span>
          <b>{card.value}</b>
          <span className="muted">{card.detail}</span>
        </div>
      ))}
    </section>
  );
}
