import { describe, expect, it } from 'vitest';
import { jobCardsIn } from './job-cards';

describe('jobCardsIn', () => {
  it('reads one card per list item, with its job id when it shows one', () => {
    const snapshot = [
      '1. ### Nurse Promoted',
      '   Acme Health',
      '   Boston, MA',
      '   Job ID: J-1',
      '2. ### Clerk',
      '   Beta Clinic',
      '- <!-- not a card -->',
    ].join('\n');
    expect(jobCardsIn(snapshot)).toEqual([
      { title: 'Nurse', company: 'Acme Health', location: 'Boston, MA', jobId: 'J-1' },
      { title: 'Clerk', company: 'Beta Clinic', location: '' },
    ]);
  });
});
