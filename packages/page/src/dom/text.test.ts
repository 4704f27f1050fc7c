import { describe, expect, it } from 'vitest';
import { cap, collapse, normalizeForMatch, scrollDepth } from './text';

describe('text helpers', () => {
  it('collapses whitespace and caps with a visible ellipsis', () => {
    expect(collapse('  Save \n\t patient  ')).toBe('Save patient');
    expect(cap('a'.repeat(100), 80)).toHaveLength(80);
    expect(cap('a'.repeat(100), 80).endsWith('…')).toBe(true);
    expect(cap('short', 80)).toBe('short');
    expect(normalizeForMatch('  New   Zealand ')).toBe('new zealand');
  });

  it('formats scroll depth as a percentage, 0% when nothing scrolls', () => {
    expect(scrollDepth(0, 1000, 1000)).toBe('0%');
    expect(scrollDepth(0, 3000, 1000)).toBe('0%');
    expect(scrollDepth(1000, 3000, 1000)).toBe('50%');
    expect(scrollDepth(2000, 3000, 1000)).toBe('100%');
    expect(scrollDepth(5000, 3000, 1000)).toBe('100%');
  });
});
