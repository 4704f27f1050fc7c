import { describe, expect, it } from 'vitest';
import { RoutineDraft, RoutineLocator, RoutineOffersQuery, type RoutineStep } from './routine';

const step: RoutineStep = {
  action: 'setValue',
  target: {
    fingerprint: 'inp|First name|f0|#0',
    locators: [{ by: 'role-name', role: 'inp', name: 'First name' }],
  },
  value: '{firstName}',
  chained: false,
  expect: null,
  safety: 'safe',
  optional: false,
};
const draft = {
  site: 'emr.test',
  goalTemplate: 'Add patient {firstName}',
  name: 'Add patient',
  parameters: [{ name: 'firstName', example: 'Jas', source: 'goal', steps: [0] }],
  steps: [step],
};

describe('routine schemas', () => {
  it('accepts a compiled routine', () => {
    expect(RoutineDraft.parse(draft)).toEqual(draft);
  });

  it('refuses a routine without steps, a target without locators, a bad parameter name', () => {
    expect(RoutineDraft.safeParse({ ...draft, steps: [] }).success).toBe(false);
    const bare = { ...step, target: { fingerprint: 'x', locators: [] } };
    expect(RoutineDraft.safeParse({ ...draft, steps: [bare] }).success).toBe(false);
    const badName = [{ name: '1st name', example: 'Jas', source: 'goal', steps: [0] }];
    expect(RoutineDraft.safeParse({ ...draft, parameters: badName }).success).toBe(false);
    const unknownAction = { ...step, action: 'finish' };
    expect(RoutineDraft.safeParse({ ...draft, steps: [unknownAction] }).success).toBe(false);
    expect(
      RoutineDraft.safeParse({ ...draft, steps: [{ ...step, safety: 'risky' }] }).success,
    ).toBe(false);
  });

  it('knows each kind of locator by its fields', () => {
    expect(RoutineLocator.safeParse({ by: 'near', role: 'inp', text: 'Name' }).success).toBe(false);
    expect(RoutineLocator.safeParse({ by: 'ordinal', role: 'btn', index: -1 }).success).toBe(false);
    expect(RoutineLocator.parse({ by: 'label', text: 'Save' })).toEqual({
      by: 'label',
      text: 'Save',
    });
  });
});

describe('RoutineOffersQuery', () => {
  it('takes a host as URL.host gives it, port and IPv6 included', () => {
    for (const site of ['emr.test', 'localhost:3000', '127.0.0.1:8080', '[::1]:5173'])
      expect(RoutineOffersQuery.safeParse({ site }).success, site).toBe(true);
  });

  it('refuses a URL, a path, text with spaces, a user part and an empty site', () => {
    for (const site of ['https://emr.test', 'emr.test/patients', 'emr test', 'me@emr.test', ''])
      expect(RoutineOffersQuery.safeParse({ site }).success, site).toBe(false);
  });
});
