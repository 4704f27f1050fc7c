import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestRank } from './percentile';

describe('nearestRank', () => {
  it('picks observed values by nearest rank', () => {
    const values = [15, 20, 35, 40, 50];
    expect(nearestRank(values, 50)).toBe(35);
    expect(nearestRank(values, 95)).toBe(50);
    expect(nearestRank(values, 20)).toBe(15);
    expect(nearestRank([7], 95)).toBe(7);
    expect(nearestRank([], 50)).toBeNull();
    expect(() => nearestRank([1], 0)).toThrow(RangeError);
  });

  it('has at least p% of the values at or below it (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(100_000), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 100 }),
        (values, p) => {
          const value = nearestRank(values, p) as number;
          expect(values).toContain(value);
          const atOrBelow = values.filter((v) => v <= value).length;
          const below = values.filter((v) => v < value).length;
          expect(atOrBelow / values.length).toBeGreaterThanOrEqual(p / 100);
          expect(below / values.length).toBeLessThan(p / 100);
        },
      ),
    );
  });
});
