import { describe, expect, it } from 'vitest';
import { SEED_PATIENTS, matchesQuery, parseDateOfBirth, validatePatient } from './patients';
import type { Patient } from './patients';

describe('parseDateOfBirth', () => {
  it('turns MM/DD/YYYY and ISO dates into ISO', () => {
    expect(parseDateOfBirth('04/12/1990')).toBe('1990-04-12');
    expect(parseDateOfBirth('1990-04-12')).toBe('1990-04-12');
    expect(parseDateOfBirth('02/29/2000')).toBe('2000-02-29');
  });

  it('refuses impossible days, other formats and years before 1900', () => {
    for (const bad of ['02/30/2000', '02/29/1999', '13/01/1990', '4/12/1990', '12-04-1990']) {
      expect(parseDateOfBirth(bad), bad).toBeNull();
    }
    expect(parseDateOfBirth('01/01/1899')).toBeNull();
    expect(parseDateOfBirth('')).toBeNull();
  });
});

describe('validatePatient', () => {
  it('accepts a full record, trimming text and normalising the date', () => {
    const result = validatePatient({
      firstName: ' Jas ',
      lastName: 'Patel',
      dateOfBirth: '01/02/1985',
      sex: 'Male',
      phone: '555-0100',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        firstName: 'Jas',
        lastName: 'Patel',
        dateOfBirth: '1985-01-02',
        sex: 'male',
        phone: '555-0100',
      },
    });
  });

  it('needs only first and last name', () => {
    const result = validatePatient({ firstName: 'Jas', lastName: 'Patel' });
    expect(result).toEqual({
      ok: true,
      value: { firstName: 'Jas', lastName: 'Patel', dateOfBirth: '', sex: '', phone: '' },
    });
  });

  it('names every invalid field', () => {
    const result = validatePatient({ firstName: '  ', dateOfBirth: '31/12/1990', sex: 'x' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual([
      'dateOfBirth',
      'firstName',
      'lastName',
      'sex',
    ]);
    expect(result.errors.firstName).toBe('First name is required.');
  });

  it('refuses bodies that are not objects', () => {
    expect(validatePatient(null).ok).toBe(false);
    expect(validatePatient(['Jas']).ok).toBe(false);
    expect(validatePatient('Jas Patel').ok).toBe(false);
  });
});

describe('matchesQuery', () => {
  const maria = SEED_PATIENTS.find((p) => p.firstName === 'Maria') as Patient;

  it('matches names, "first last", "last, first" and the id, ignoring case', () => {
    for (const query of ['maria', 'LOPEZ', 'maria lo', 'lopez, m', 'p-1001', '', '  ']) {
      expect(matchesQuery(maria, query), query).toBe(true);
    }
  });

  it('does not match other people', () => {
    expect(matchesQuery(maria, 'smith')).toBe(false);
  });
});
