import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AdminTaskListQuery,
  BillingQuery,
  BillingResponse,
  KPI_TARGETS,
  microUsdToUsd,
  MetricsResponse,
  RateMetric,
  ReportInstant,
} from './admin';
import { endpoints } from './endpoints';

describe('microUsdToUsd', () => {
  it('writes exact dollars with six decimals', () => {
    expect(microUsdToUsd(0)).toBe('0.000000');
    expect(microUsdToUsd(1)).toBe('0.000001');
    expect(microUsdToUsd(1_500)).toBe('0.001500');
    expect(microUsdToUsd(12_345_678)).toBe('12.345678');
    expect(microUsdToUsd(-2_000_001)).toBe('-2.000001');
  });

  it('round-trips every safe integer exactly (property)', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (micro) => {
        const usd = microUsdToUsd(micro);
        const [whole = '', fraction = ''] = usd.replace('-', '').split('.');
        const back =
          (BigInt(whole) * 1_000_000n + BigInt(fraction)) * (usd.startsWith('-') ? -1n : 1n);
        expect(back).toBe(BigInt(micro));
      }),
    );
  });

  it('refuses fractions of a micro-dollar', () => {
    expect(() => microUsdToUsd(1.5)).toThrow(RangeError);
  });
});

describe('admin queries', () => {
  it('accepts dates and date-times with offsets, nothing else', () => {
    expect(ReportInstant.safeParse('2024-03-01').success).toBe(true);
    expect(ReportInstant.safeParse('2024-03-01T10:00:00Z').success).toBe(true);
    expect(ReportInstant.safeParse('2024-03-01T10:00:00+02:00').success).toBe(true);
    expect(ReportInstant.safeParse('2024-02-31').success).toBe(true); // Date.parse rolls it over
    expect(ReportInstant.safeParse('2024-13-45').success).toBe(false);
    expect(ReportInstant.safeParse('yesterday').success).toBe(false);
    expect(ReportInstant.safeParse('1709251200000').success).toBe(false);
  });

  it('defaults billing to daily rows and rejects unknown groupings', () => {
    expect(BillingQuery.parse({})).toEqual({ groupBy: 'day' });
    expect(BillingQuery.parse({ groupBy: 'user', from: '2024-03-01' })).toEqual({
      groupBy: 'user',
      from: '2024-03-01',
    });
    expect(BillingQuery.safeParse({ groupBy: 'tenant' }).success).toBe(false);
  });

  it('parses comma-separated task statuses and coerces the limit', () => {
    expect(AdminTaskListQuery.parse({ status: 'completed,failed', limit: '20' })).toEqual({
      status: ['completed', 'failed'],
      limit: 20,
    });
    expect(AdminTaskListQuery.safeParse({ status: 'completed,done' }).success).toBe(false);
    expect(AdminTaskListQuery.safeParse({ limit: '0' }).success).toBe(false);
  });

  it('registers the admin endpoints with admin auth', () => {
    for (const name of ['adminBilling', 'adminMetrics', 'adminTasks', 'adminTask'] as const) {
      expect(endpoints[name].auth).toBe('admin');
      expect(endpoints[name].method).toBe('GET');
    }
    expect(endpoints.adminBilling.response).toBe(BillingResponse);
    expect(endpoints.adminMetrics.response).toBe(MetricsResponse);
    expect(endpoints.adminTask.path).toBe('/api/admin/tasks/:taskId');
  });
});

describe('KPI targets', () => {
  it('puts every alert threshold on the bad side of its target', () => {
    for (const [name, kpi] of Object.entries(KPI_TARGETS)) {
      if ('alertAbove' in kpi) expect(kpi.alertAbove, name).toBeGreaterThan(kpi.target);
      else if (kpi.alertBelow !== null) expect(kpi.alertBelow, name).toBeLessThan(kpi.target);
    }
  });

  it('has a rate metric in the response for every rate target', () => {
    const rateKpis = Object.keys(KPI_TARGETS).filter((name) => !name.endsWith('Ms'));
    for (const name of rateKpis) expect(MetricsResponse.shape, name).toHaveProperty(name);
    expect(rateKpis).toEqual(
      expect.arrayContaining([
        'classificationAccuracy',
        'roundTripReduction',
        'replanFrequency',
        'skillHitRate',
        'skillEffectiveness',
      ]),
    );
  });

  it('keeps a rate null without samples and within 0..1', () => {
    expect(RateMetric.safeParse({ rate: null, successes: 0, samples: 0 }).success).toBe(true);
    expect(RateMetric.safeParse({ rate: 1.5, successes: 3, samples: 2 }).success).toBe(false);
  });
});
