import { KPI_TARGETS, type MetricsResponse, type RateMetric } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { kpiCards, latencyCard, rateCard, verdictOf } from './kpi-model';

const rate = (successes: number, samples: number): RateMetric => ({
  rate: samples === 0 ? null : successes / samples,
  successes,
  samples,
});
const none = rate(0, 0);
const noLatency = { p50Ms: null, p95Ms: null, samples: 0 };

const metrics = (overrides: Partial<MetricsResponse> = {}): MetricsResponse => ({
  window: { from: '2024-05-01T00:00:00.000Z', to: '2024-05-31T00:00:00.000Z' },
  tasks: {
    total: 0,
    byStatus: {
      active: 0,
      executing: 0,
      completed: 0,
      failed: 0,
      interrupted: 0,
      needs_user_input: 0,
      cancelled: 0,
    },
  },
  taskCompletion: none,
  stepLatency: noLatency,
  latencyByComplexity: { SIMPLE: noLatency, COMPLEX: noLatency },
  chainSuccess: none,
  verificationSuccess: none,
  correctionSuccess: none,
  classificationAccuracy: none,
  roundTripReduction: none,
  replanFrequency: none,
  criticCatchRate: none,
  skillHitRate: none,
  skillEffectiveness: none,
  lookAheadHitRate: none,
  earlyDetection: none,
  ...overrides,
});

describe('verdictOf', () => {
  it('judges higher-is-better rates against target and alert', () => {
    const target = KPI_TARGETS.classificationAccuracy; // ≥ 90 %, alert < 80 %
    expect(verdictOf(0.95, target)).toBe('ok');
    expect(verdictOf(0.9, target)).toBe('ok');
    expect(verdictOf(0.85, target)).toBe('');
    expect(verdictOf(0.8, target)).toBe('');
    expect(verdictOf(0.79, target)).toBe('alert');
  });

  it('judges lower-is-better rates the other way round', () => {
    const target = KPI_TARGETS.replanFrequency; // < 20 %, alert > 40 %
    expect(verdictOf(0.1, target)).toBe('ok');
    expect(verdictOf(0.2, target)).toBe('');
    expect(verdictOf(0.4, target)).toBe('');
    expect(verdictOf(0.41, target)).toBe('alert');
  });

  it('never alerts where the spec sets no threshold, and says nothing without data', () => {
    expect(verdictOf(0, KPI_TARGETS.skillHitRate)).toBe('');
    expect(verdictOf(0.1, KPI_TARGETS.skillHitRate)).toBe('ok');
    expect(verdictOf(0.5, null)).toBe('');
    expect(verdictOf(null, KPI_TARGETS.taskCompletion)).toBe('');
  });
});

describe('KPI cards', () => {
  it('shows the value, what was counted and the target', () => {
    expect(
      rateCard('Re-plan frequency', rate(9, 20), 'planned tasks', KPI_TARGETS.replanFrequency),
    ).toEqual({
      title: 'Re-plan frequency',
      value: '45.0%',
      detail: '9 / 20 planned tasks · target < 20.0%',
      verdict: 'alert',
    });
    expect(rateCard('Critic catch rate', rate(1, 4), 'reviews', null)).toEqual({
      title: 'Critic catch rate',
      value: '25.0%',
      detail: '1 / 4 reviews',
      verdict: '',
    });
    expect(
      latencyCard(
        'SIMPLE latency',
        { p50Ms: 900, p95Ms: 1_500, samples: 12 },
        KPI_TARGETS.simpleLatencyMs,
      ),
    ).toEqual({
      title: 'SIMPLE latency',
      value: '900 ms / 1.50 s',
      detail: 'p50 / p95 · 12 steps · p95 target < 2.00 s',
      verdict: 'ok',
    });
  });

  it('says "no data" for every card of an empty window', () => {
    const cards = kpiCards(metrics());
    expect(cards.map((c) => c.title)).toEqual([
      'Task completion',
      'Step latency',
      'SIMPLE latency',
      'COMPLEX latency',
      'Classification accuracy',
      'Chain success',
      'Round-trip reduction',
      'Re-plan frequency',
      'Critic catch rate',
      'Skill hit rate',
      'Skill effectiveness',
      'Verification success',
      'Look-ahead hit rate',
      'Early detection',
      'Correction success',
    ]);
    for (const card of cards) {
      expect(card.detail, card.title).toMatch(/^no data/);
      expect(card.verdict, card.title).toBe('');
    }
  });
});
