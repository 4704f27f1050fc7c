import { describe, expect, it } from 'vitest';
import { inferCollectLimit, isExtractionGoal } from './extraction-goal';

describe('extraction goals', () => {
  it.each([
    ['Extract 25 job listings', 25],
    ['collect 10 products from this category', 10],
    ['Scrape 100 rows of the table', 100],
    ['get me 5 senior engineer jobs in Berlin', 5],
    ['List 30 companies hiring', 30],
  ])('%s → limit %d', (query, limit) => {
    expect(isExtractionGoal(query)).toBe(true);
    expect(inferCollectLimit(query)).toBe(limit);
  });

  it.each(['Extract every job on this board', 'Collect the auth section of these docs'])(
    '%s is extraction without a count',
    (query) => {
      expect(isExtractionGoal(query)).toBe(true);
      expect(inferCollectLimit(query)).toBeNull();
    },
  );

  it.each(['Add a new patient named Jas aged 25', 'click Logout', 'Book 2 tickets for Friday'])(
    '%s is not extraction',
    (query) => {
      expect(isExtractionGoal(query)).toBe(false);
      expect(inferCollectLimit(query)).toBeNull();
    },
  );

  it('ignores counts out of range', () => {
    expect(inferCollectLimit('Extract 0 jobs')).toBeNull();
    expect(inferCollectLimit('Extract 50000 jobs')).toBeNull();
  });
});
