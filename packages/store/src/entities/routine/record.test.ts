import { describe, expect, it } from 'vitest';
import { defaultRoutineName, newRoutineRecord } from './record';

describe('routine records', () => {
  it('names a routine after its template, cut at a word boundary when long', () => {
    expect(defaultRoutineName('  Add patient\n{firstName} ')).toBe('Add patient ‹first name›');
    expect(defaultRoutineName('Mail {to_address} about {{x}}')).toBe('Mail ‹to address› about {x}');
    const long = `Add the patient {firstName} {lastName} ${'with a rather long note '.repeat(5)}`;
    const name = defaultRoutineName(long);
    expect(name.endsWith('…')).toBe(true);
    expect(name.length).toBeLessThanOrEqual(81);
    expect(
      defaultRoutineName(long).startsWith('Add the patient ‹first name› ‹last name› with'),
    ).toBe(true);
    expect(name.slice(0, -1).endsWith(' ')).toBe(false);
  });

  it('starts enabled, with zero counters, at the version it is given', () => {
    const now = '2026-01-01T00:00:00.000Z';
    const record = newRoutineRecord(
      't1',
      { site: 'a.test', goalTemplate: 'Do {x}', parameters: [], steps: [] },
      3,
      now,
    );
    expect(record).toMatchObject({
      tenantId: 't1',
      name: 'Do ‹x›',
      version: 3,
      enabled: true,
      sourceTaskId: null,
      runs: 0,
      heals: 0,
      tokensSaved: 0,
      createdAt: now,
      updatedAt: now,
    });
  });
});
