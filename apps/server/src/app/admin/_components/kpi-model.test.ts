import { KPI_TARGETS, type MetricsResponse, type RateMetric } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { kpiCards, latencyCard, MIN_KPI_SAMPLES, rateCard, verdictOf } from './kpi-model';

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
      tooFew: false,
    });
    expect(rateCard('Critic catch rate', rate(1, 4), 'reviews', null)).toEqual({
      title: 'Critic catch rate',
      value: '25.0%',
      detail: '1 / 4 reviews',
      verdict: '',
      tooFew: false,
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
      detail: 'p50 / p95 · 12 round trips · p95 target < 2.00 s',
      verdict: 'ok',
      tooFew: false,
    });
  });

  it('judges no card with a target from fewer than MIN_KPI_SAMPLES samples, and says so', () => {
    // A fresh install after two trivial tasks: each finished in one round trip, no chains.
    const card = rateCard(
      'Round-trip reduction',
      rate(0, 2),
      'actions sent',
      KPI_TARGETS.roundTripReduction,
    );
    expect(card).toEqual({
      title: 'Round-trip reduction',
      value: '0.0%',
      detail: `0 / 2 actions sent · not enough actions sent yet to judge (2 of ${MIN_KPI_SAMPLES}) · target ≥ 50.0%`,
      verdict: '',
      tooFew: true,
    });
    // Good news from too few samples is not judged either.
    expect(
      rateCard('Task completion', rate(2, 2), 'tasks', KPI_TARGETS.taskCompletion),
    ).toMatchObject({ verdict: '', tooFew: true });
    expect(
      latencyCard(
        'Step latency',
        { p50Ms: 20_000, p95Ms: 30_000, samples: 3 },
        KPI_TARGETS.p95LatencyMs,
      ),
    ).toMatchObject({ verdict: '', tooFew: true, detail: expect.stringContaining('(3 of 10)') });
    // From the minimum on, the card is judged as before.
    expect(
      rateCard(
        'Round-trip reduction',
        rate(0, MIN_KPI_SAMPLES),
        'actions sent',
        KPI_TARGETS.roundTripReduction,
      ),
    ).toMatchObject({ verdict: 'alert', tooFew: false });
    // Cards without a target are never judged, so their sample count is not called too few.
    expect(rateCard('Critic catch rate', rate(0, 1), 'reviews', null)).toMatchObject({
      verdict: '',
      tooFew: false,
    });
  });

  it('judges none of the cards of a window with two tasks', () => {
    const two = metrics({
      taskCompletion: rate(2, 2),
      stepLatency: { p50Ms: 800, p95Ms: 12_000, samples: 4 },
      roundTripReduction: rate(0, 4),
      verificationSuccess: rate(1, 2),
      classificationAccuracy: rate(1, 2),
    });
    for (const card of kpiCards(two)) expect(card.verdict, card.title).toBe('');
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
