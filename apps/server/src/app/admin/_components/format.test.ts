import { describe, expect, it } from 'vitest';
import { niceStep } from './chart-scale';
import { formatMicroUsdTick, formatUsd, lastDayOf, windowText } from './format';

describe('admin formatting', () => {
  it('shows exact dollar strings with at least cents', () => {
    expect(formatUsd('0.000824')).toBe('$0.000824');
    expect(formatUsd('1234.500000')).toBe('$1,234.50');
    expect(formatUsd('0.000000')).toBe('$0.00');
  });

  it('labels chart ticks with the decimals their step needs', () => {
    expect(niceStep(824)).toBe(250);
    expect([0, 250, 500, 750, 1000].map((t) => formatMicroUsdTick(t, 250))).toEqual([
      '$0',
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

  it('describes a window as the date form does: whole days included, else "up to" the end', () => {
    // The form's "to 2024-03-02" resolves to an exclusive 2024-03-03T00:00Z.
    expect(windowText({ from: '2024-03-01T00:00:00.000Z', to: '2024-03-03T00:00:00.000Z' })).toBe(
      '2024-03-01 to 2024-03-02 (UTC days, both included)',
    );
    // The default window: the last 30 days up to now.
    expect(windowText({ from: '2024-02-01T10:20:30.000Z', to: '2024-03-02T10:20:30.000Z' })).toBe(
      '2024-02-01 10:20:30 UTC up to 2024-03-02 10:20:30 UTC',
    );
  });
});
