// The EMR's patient records. The browser validates too, but the server is the authority:
// e2e tests and agents may POST directly, and a demo that stores garbage hides bugs.

export type Sex = 'female' | 'male' | 'other' | 'unknown' | '';

export interface Patient {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  /** ISO date (YYYY-MM-DD), or '' when not given. */
  readonly dateOfBirth: string;
  readonly sex: Sex;
  readonly phone: string;
}

export type PatientInput = Omit<Patient, 'id'>;

export type PatientField = keyof PatientInput;

export type PatientValidation =
  { ok: true; value: PatientInput } | { ok: false; errors: Partial<Record<PatientField, string>> };

const SEXES: readonly Sex[] = ['female', 'male', 'other', 'unknown', ''];

/** Fixed records so a search has something to find and ids are the same on every run. */
export const SEED_PATIENTS: readonly Patient[] = [
  {
    id: 'P-1001',
    firstName: 'Maria',
    lastName: 'Lopez',
    dateOfBirth: '1968-03-14',
    sex: 'female',
    phone: '555-0142',
  },
  {
    id: 'P-1002',
    firstName: 'John',
    lastName: 'Smith',
    dateOfBirth: '1975-11-02',
    sex: 'male',
    phone: '555-0187',
  },
  {
    id: 'P-1003',
    firstName: 'Aisha',
    lastName: 'Khan',
    dateOfBirth: '1990-07-21',
    sex: 'female',
    phone: '555-0113',
  },
];

/**
 * Accepts what the form sends (MM/DD/YYYY) and ISO dates (what a script would send), and
 * returns the ISO form, or null when it is not a real calendar date from 1900 on.
 */
export function parseDateOfBirth(text: string): string | null {
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const [year, month, day] = us
    ? [Number(us[3]), Number(us[1]), Number(us[2])]
    : iso
      ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
      : [NaN, NaN, NaN];
  if (!Number.isInteger(year) || year < 1900) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!real) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function text(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  return typeof value === 'string' ? value.trim() : '';
}

export function validatePatient(body: unknown): PatientValidation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: { firstName: 'Body must be a JSON object.' } };
  }
  const record = body as Record<string, unknown>;
  const errors: Partial<Record<PatientField, string>> = {};
  const firstName = text(record, 'firstName');
  const lastName = text(record, 'lastName');
  const dobText = text(record, 'dateOfBirth');
  const sexText = text(record, 'sex').toLowerCase();
  const phone = text(record, 'phone');

  if (!firstName) errors.firstName = 'First name is required.';
  else if (firstName.length > 100) errors.firstName = 'First name is too long.';
  if (!lastName) errors.lastName = 'Last name is required.';
  else if (lastName.length > 100) errors.lastName = 'Last name is too long.';
  const dateOfBirth = dobText ? parseDateOfBirth(dobText) : '';
  if (dateOfBirth === null) errors.dateOfBirth = 'Date of birth must be a valid date (MM/DD/YYYY).';
  const sex = SEXES.find((candidate) => candidate === sexText);
  if (sex === undefined) errors.sex = 'Sex must be female, male, other or unknown.';
  if (phone.length > 30) errors.phone = 'Phone is too long.';

  if (Object.keys(errors).length > 0 || dateOfBirth === null || sex === undefined) {
    return { ok: false, errors };
  }
  return { ok: true, value: { firstName, lastName, dateOfBirth, sex, phone } };
}

/** Case-insensitive match on first name, last name, "first last" or the id. */
export function matchesQuery(patient: Patient, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  const haystack = [
    patient.id,
    patient.firstName,
    patient.lastName,
    `${patient.firstName} ${patient.lastName}`,
    `${patient.lastName}, ${patient.firstName}`,
  ].map((value) => value.toLowerCase());
  return haystack.some((value) => value.includes(needle));
}
