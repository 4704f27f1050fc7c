import { describe, expect, it } from 'vitest';
import { goalSimilarity, goalWords } from './skills-service';

describe('goal similarity', () => {
  it('compares content words, ignoring case, punctuation and stopwords', () => {
    expect([...goalWords('Add a new patient named Jas Patel')]).toEqual([
      'add',
      'patient',
      'jas',
      'patel',
    ]);
    expect(goalSimilarity('Add a new patient named Jas', 'add patient Maria')).toBeCloseTo(2 / 4);
    expect(goalSimilarity('Add a new patient named Jas', 'Export the job listings')).toBe(0);
    expect(goalSimilarity('', 'anything')).toBe(0);
  });
});
