import { describe, expect, it } from 'vitest';
import { niceStep } from './chart-scale';
import { formatMicroUsdTick, formatUsd, lastDayOf } from './format';

describe('admin formatting', () => {
  it('shows exact dollar strings with at least cents', () => {
    expect(formatUsd('0.000824')).toBe('$0.000824');
    expect(formatUsd('1234.500000')).toBe('$1,234.50');
    expect(formatUsd('0.000000')).toBe('$0.00');
  });

  it('labels chart ticks with the decimals their step needs', () => {
    expect(niceStep(824)).toBe(250);
    expect([0, 250, 500, 750, 1000].map((t) => formatMicroUsdTick(t, 250))).toEqual([
      '$0.00000',
      '$0.00025',
      '$0.00050',
      '$0.00075',
      '$0.00100',
    ]);
    expect(formatMicroUsdTick(2_000_000, niceStep(7_000_000))).toBe('$2.00');
    expect(formatMicroUsdTick(1, 1)).toBe('$0.000001');
  });

  it('shows the inclusive last day of an exclusive window end', () => {
    expect(lastDayOf('2024-03-03T00:00:00.000Z')).toBe('2024-03-02');
  });
});
