import { describe, expect, it } from 'vitest';
import { collectedSummaryLine, collectedTotal, limitReached } from './summary';

describe('limitReached', () => {
  it('compares the total over all types with the limit', () => {
    expect(limitReached({ job: 24 }, 25)).toBe(false);
    expect(limitReached({ job: 20, company: 5 }, 25)).toBe(true);
    expect(limitReached({ job: 30 }, 25)).toBe(true);
  });

  it('never triggers without a limit', () => {
    expect(limitReached({ job: 10_000 }, null)).toBe(false);
    expect(limitReached({ job: 3 }, 0)).toBe(false);
  });
});

describe('collectedSummaryLine', () => {
  it('carries counts only, sorted by type, with the target', () => {
    expect(collectedSummaryLine({ job: 12, company: 3 }, 25)).toBe(
      'Collected so far (stored, not shown): 15/25 items (company 3, job 12).',
    );
    expect(collectedTotal({ job: 12, company: 3 })).toBe(15);
  });

  it('says when the target is reached', () => {
    expect(collectedSummaryLine({ job: 25 }, 25)).toBe(
      'Collected so far (stored, not shown): 25/25 job items. Target reached: finish the task.',
    );
  });

  it('is empty for a task that neither collected nor set a target', () => {
    expect(collectedSummaryLine({}, null)).toBe('');
    expect(collectedSummaryLine({ job: 0 }, null)).toBe('');
    expect(collectedSummaryLine({}, 10)).toBe('Collected so far (stored, not shown): 0/10 items.');
  });

  it('stays the same size however much data the items hold', () => {
    const line = collectedSummaryLine({ job: 400 }, null);
    expect(line).toBe('Collected so far (stored, not shown): 400 job items.');
  });
});
