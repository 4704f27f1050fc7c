import {
  MASKED_VALUE,
  parseAction,
  type RoutineExpectation,
  type RoutineStep,
  type RoutineTarget,
  type SemanticNodeV3,
} from '@tandem/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { domHash, semanticSkeleton } from '../page/page-state';
import { pageOf } from '../testing/state';
import { checkOutcome, instantiateStep, substitutionsOf } from './replay';

const PARAMS = [{ name: 'firstName' }, { name: 'lastName' }, { name: 'gender' }];
const target: RoutineTarget = {
  fingerprint: 'inp|First name|f0|#0',
  locators: [{ by: 'label', text: 'First name' }],
};
const step = (over: Partial<RoutineStep>): Pick<RoutineStep, 'action' | 'target' | 'value'> => ({
  action: 'click',
  target: null,
  value: null,
  ...over,
});
const VALUES = { firstName: 'Kim', lastName: 'Lee', gender: 'male' };

describe('instantiateStep', () => {
  it('writes each kind of step as the grammar’s action string, values filled in', () => {
    const cases: [Pick<RoutineStep, 'action' | 'target' | 'value'>, string | null, string][] = [
      [step({ action: 'setValue', target, value: '{firstName}' }), '14', 'setValue("14", "Kim")'],
      [
        step({ action: 'setValue', target, value: 'Dr. {lastName}, {{{{x}}}} "{firstName}"' }),
        'a-7',
        'setValue("a-7", "Dr. Lee, {{x}} \\"Kim\\"")',
      ],
      [step({ action: 'select', target, value: '{gender}' }), '21', 'select("21", "male")'],
      [step({ action: 'click', target }), '5', 'click("5")'],
      [step({ action: 'hover', target }), '5', 'hover("5")'],
      [step({ action: 'scroll', target }), '5', 'scroll("5")'],
      [step({ action: 'scroll', value: 'down' }), null, 'scroll("down")'],
      [step({ action: 'press', value: 'Enter' }), null, 'press("Enter")'],
      [
        step({ action: 'navigate', value: 'https://emr.test/patients?q={lastName}' }),
        null,
        'navigate("https://emr.test/patients?q=Lee")',
      ],
      [step({ action: 'goBack' }), null, 'goBack()'],
      [step({ action: 'wait', value: '1.5' }), null, 'wait(1.5)'],
    ];
    for (const [s, id, expected] of cases) {
      const result = instantiateStep(s, PARAMS, VALUES, id);
      expect(result).toMatchObject({ ok: true, action: expected });
      if (result.ok) expect(parseAction(result.action)).toEqual(result.parsed);
    }
  });

  it('refuses values that are not the run’s parameters, and parameters left unfilled', () => {
    const typing = step({ action: 'setValue', target, value: '{firstName} {middle}' });
    expect(instantiateStep(typing, PARAMS, VALUES, '1')).toEqual({
      ok: false,
      reason: '{middle} is not a routine parameter',
    });
    expect(
      instantiateStep(
        step({ action: 'setValue', target, value: '{lastName}' }),
        PARAMS,
        { firstName: 'Kim' },
        '1',
      ),
    ).toEqual({ ok: false, reason: 'no value for {lastName}' });
    expect(
      instantiateStep(step({ action: 'click', target }), PARAMS, { ...VALUES, password: 'x' }, '1'),
    ).toEqual({ ok: false, reason: 'password is not a parameter of the routine' });
    expect(
      instantiateStep(step({ action: 'setValue', target, value: '{x' }), PARAMS, VALUES, '1').ok,
    ).toBe(false);
  });

  it('refuses a missing or stray element, and results the grammar rejects', () => {
    expect(instantiateStep(step({ action: 'click', target }), PARAMS, VALUES, null)).toEqual({
      ok: false,
      reason: 'click needs its element',
    });
    expect(instantiateStep(step({ action: 'press', value: 'Enter' }), PARAMS, VALUES, '3')).toEqual(
      {
        ok: false,
        reason: 'press acts on no element',
      },
    );
    const bad = (s: Pick<RoutineStep, 'action' | 'target' | 'value'>) =>
      instantiateStep(s, [{ name: 'url' }], { url: 'javascript:alert(1)' }, null).ok;
    expect(bad(step({ action: 'navigate', value: '{url}' }))).toBe(false);
    expect(bad(step({ action: 'wait', value: 'soon' }))).toBe(false);
    expect(bad(step({ action: 'select', target, value: '' }))).toBe(false);
    expect(bad(step({ action: 'scroll', value: 'sideways' }))).toBe(false);
  });

  it('types exactly the value it was given, whatever its characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (first, last) => {
        const s = step({
          action: 'setValue',
          target,
          value: 'Name: {firstName} {{{{x}}}} {lastName}',
        });
        const result = instantiateStep(s, PARAMS, { firstName: first, lastName: last }, 'f1');
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(parseAction(result.action)).toEqual({
          name: 'setValue',
          args: { id: 'f1', text: `Name: ${first} {{x}} ${last}` },
        });
      }),
      { seed: 33, numRuns: 300 },
    );
  });
});

const expectation = (over: Partial<RoutineExpectation>): RoutineExpectation => ({
  tier: 1,
  urlChanged: false,
  url: 'https://emr.test/patients/new',
  domChanged: false,
  network: false,
  fieldsHold: false,
  text: [],
  reason: '',
  ...over,
});

const filledForm = (first: string, gender: string): SemanticNodeV3[] => [
  { i: '2', r: 'inp', n: 'First name', v: first },
  { i: '3', r: 'inp', n: 'Password', v: MASKED_VALUE },
  { i: '4', r: 'sel', n: 'Gender', v: gender },
  { i: '5', r: 'btn', n: 'Save' },
];
const emptyForm = filledForm('', '');
const before = {
  url: 'https://emr.test/patients/new',
  domHash: domHash(emptyForm),
  skeleton: semanticSkeleton(emptyForm),
};
const fill = [
  parseAction('setValue("2", "Kim")'),
  parseAction('setValue("3", "hunter2")'),
  parseAction('select("4", "Male")'),
];

describe('checkOutcome', () => {
  it('checks that the fields hold their values', () => {
    const expected = expectation({ fieldsHold: true, domChanged: true });
    const page = pageOf(filledForm('Kim', 'male'), { url: before.url });
    expect(checkOutcome(expected, fill, before, page)).toEqual({ verified: true });
    const wrong = pageOf(filledForm('Kimberly', 'male'), { url: before.url });
    expect(checkOutcome(expected, fill, before, wrong)).toEqual({
      verified: false,
      reason: '“First name” holds “Kimberly”, expected “Kim”',
    });
    const gone = pageOf(filledForm('Kim', 'male').slice(1), { url: before.url });
    expect(checkOutcome(expected, fill, before, gone)).toMatchObject({ verified: false });
    // Nothing changed at all: the fill did not happen.
    expect(
      checkOutcome(
        expectation({ domChanged: true }),
        fill,
        before,
        pageOf(emptyForm, { url: before.url }),
      ),
    ).toEqual({
      verified: false,
      reason: 'nothing changed on the page',
    });
  });

  it('checks that the page moved when it did in the first run, to a page like that one', () => {
    const save = [parseAction('click("5")')];
    const expected = expectation({
      urlChanged: true,
      url: 'https://emr.test/patients/17',
      domChanged: true,
      text: ['Patient Jas Patel saved (#17)'],
    });
    const substitute = substitutionsOf(
      [
        { name: 'firstName', example: 'Jas' },
        { name: 'lastName', example: 'Patel' },
        { name: 'toString', example: 'x' },
      ],
      { firstName: 'Kim', lastName: 'Lee' },
    );
    expect(substitute).toEqual([
      { example: 'Jas', value: 'Kim' },
      { example: 'Patel', value: 'Lee' },
      { example: 'x', value: 'x' },
    ]);
    const after = (url: string, message: string) =>
      pageOf([{ i: '9', r: 'link', n: 'Patients' }], { url, successMessages: [message] });
    const saved = after('https://emr.test/patients/18', 'Patient Kim Lee saved (#18)');
    expect(checkOutcome(expected, save, before, saved, substitute)).toEqual({ verified: true });
    // Only whole words are the first run's values: "Jasmine" and "1" in "#17" stay.
    const wordy = expectation({ text: ['Jasmine Ward 17: Jas added'] });
    const ward = [...substitute, { example: '1', value: '2' }];
    const shown = pageOf([], { url: before.url, successMessages: ['Jasmine Ward 17: Kim added'] });
    expect(checkOutcome(wordy, save, before, shown, ward)).toEqual({ verified: true });
    // The first run's patient in the message is not this run's outcome.
    expect(
      checkOutcome(
        expected,
        save,
        before,
        after('https://emr.test/patients/18', 'Patient Jas Patel saved (#18)'),
        substitute,
      ),
    ).toEqual({ verified: false, reason: 'the page does not show “Patient Kim Lee saved (#17)”' });
    expect(
      checkOutcome(
        expected,
        save,
        before,
        after(before.url, 'Patient Kim Lee saved (#18)'),
        substitute,
      ),
    ).toMatchObject({ verified: false, reason: expect.stringMatching(/did not move/) });
    expect(
      checkOutcome(
        expected,
        save,
        before,
        after('https://emr.test/invoices/18', 'Patient Kim Lee saved'),
        substitute,
      ),
    ).toMatchObject({ verified: false, reason: expect.stringMatching(/not a page like/) });
    expect(
      checkOutcome(expected, save, before, after('https://evil.test/patients/18', 'x'), substitute),
    ).toMatchObject({ verified: false });
  });

  it('fails a step that moved when the first run did not, or that the page reports as failed', () => {
    const expected = expectation({ fieldsHold: true });
    const moved = pageOf(filledForm('Kim', 'male'), { url: 'https://emr.test/login' });
    expect(checkOutcome(expected, fill, before, moved)).toMatchObject({ verified: false });
    const anchor = pageOf(filledForm('Kim', 'male'), { url: `${before.url}#gender` });
    expect(checkOutcome(expected, fill, before, anchor)).toEqual({ verified: true });
    const errors = pageOf(filledForm('Kim', 'male'), {
      url: before.url,
      hasErrors: true,
      errors: ['Date of birth is required'],
    });
    expect(checkOutcome(expected, fill, before, errors)).toEqual({
      verified: false,
      reason: 'the page shows errors: Date of birth is required',
    });
    const failed = pageOf(filledForm('Kim', 'male'), {
      url: before.url,
      lastActionStatus: 'failure',
      lastActionError: 'element not found',
    });
    expect(checkOutcome(expected, fill, before, failed)).toEqual({
      verified: false,
      reason: 'the extension reported the action failed: element not found',
    });
  });

  it('does not count text that was already on the page, nor a model-judged step with no facts', () => {
    const expected = expectation({ text: ['Gender'] });
    const page = pageOf(filledForm('Kim', 'male'), { url: before.url });
    expect(checkOutcome(expected, [], before, page)).toEqual({
      verified: false,
      reason: '“Gender” was on the page before the step',
    });
    expect(checkOutcome(expectation({ tier: 2 }), [], before, page)).toMatchObject({
      verified: false,
      reason: expect.stringMatching(/needed a model/),
    });
    // A scroll or a wait: nothing to check, nothing wrong.
    expect(checkOutcome(expectation({}), [parseAction('scroll("down")')], before, page)).toEqual({
      verified: true,
    });
  });
});
