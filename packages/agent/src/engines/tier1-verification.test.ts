import type { NextGoal, SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { pageOf, pendingOn } from '../testing/state';
import {
  checkNextGoal,
  goalConfirmation,
  LOOK_AHEAD_MISS_CONFIDENCE,
  verifyTier1,
} from './tier1-verification';

const before = pageOf([{ i: '1', r: 'btn', n: 'Next' }]);
const wizardStep2: SemanticNodeV3[] = [
  { i: '7', r: 'tf', n: 'First name' },
  { i: '8', r: 'btn', n: 'Continue' },
];

const goal = (extra: Partial<NextGoal>): NextGoal => ({
  description: 'the First name field',
  required: true,
  ...extra,
});

describe('checkNextGoal: the look-ahead, by selector, text and role', () => {
  it('finds the next goal by its text, and only in the role asked for', () => {
    const page = pageOf(wizardStep2);
    expect(checkNextGoal(goal({ textContent: 'First name' }), page)?.available).toBe(true);
    expect(checkNextGoal(goal({ textContent: 'First name', role: 'tf' }), page)?.available).toBe(
      true,
    );
    expect(checkNextGoal(goal({ textContent: 'First name', role: 'btn' }), page)).toEqual({
      available: false,
      reason: 'next goal "First name" is not on the page',
    });
  });

  it('finds it by selector (an element id of the new tree), with or without #', () => {
    const page = pageOf(wizardStep2);
    expect(checkNextGoal(goal({ selector: '8', textContent: 'Proceed' }), page)?.available).toBe(
      true,
    );
    expect(checkNextGoal(goal({ selector: '#8', role: 'btn', textContent: 'x' }), page)).toEqual(
      expect.objectContaining({ available: true }),
    );
    // The id exists but is not the role the next step needs.
    expect(checkNextGoal(goal({ selector: '8', role: 'tf', textContent: 'x' }), page)).toEqual(
      expect.objectContaining({ available: false }),
    );
  });

  it('ignores occluded elements and finds success messages', () => {
    const covered = pageOf([{ i: '7', r: 'tf', n: 'First name', occ: true }]);
    expect(checkNextGoal(goal({ textContent: 'First name' }), covered)?.available).toBe(false);
    const saved = pageOf([], { successMessages: ['Patient saved'] });
    expect(checkNextGoal(goal({ textContent: 'saved' }), saved)?.available).toBe(true);
  });

  it('says nothing without a next goal', () => {
    expect(checkNextGoal(undefined, pageOf(wizardStep2))).toBeUndefined();
  });
});

describe('verifyTier1 with a look-ahead', () => {
  const click = (nextGoal: NextGoal) =>
    pendingOn('click("1")', before, {
      expectedOutcome: { description: 'the profile step appears', nextGoal },
    });

  it('a required next goal that is missing turns a working click into a caught failure', () => {
    const page = pageOf([{ i: '9', r: 'btn', n: 'Retry' }]);
    const verdict = verifyTier1(click(goal({ textContent: 'First name' })), page);
    expect(verdict).toEqual(
      expect.objectContaining({
        success: false,
        lookAheadCaught: true,
        nextGoal: { available: false, reason: 'next goal "First name" is not on the page' },
      }),
    );
    expect(verdict.confidence).toBeLessThanOrEqual(LOOK_AHEAD_MISS_CONFIDENCE);
    expect(verdict.reason).toContain('but next goal "First name" is not on the page');
  });

  it('an optional next goal that is missing is reported but does not fail the step', () => {
    const page = pageOf([{ i: '9', r: 'btn', n: 'Retry' }]);
    const verdict = verifyTier1(click(goal({ textContent: 'First name', required: false })), page);
    expect(verdict.success).toBe(true);
    expect(verdict.lookAheadCaught).toBeUndefined();
    expect(verdict.nextGoal?.available).toBe(false);
  });

  it('a next goal that is there is a hit, and the verdict stands', () => {
    const verdict = verifyTier1(click(goal({ textContent: 'First name' })), pageOf(wizardStep2));
    expect(verdict.success).toBe(true);
    expect(verdict.nextGoal?.available).toBe(true);
    expect(verdict.lookAheadCaught).toBeUndefined();
  });

  it('a failed action is not counted as caught by the look-ahead: it failed on its own', () => {
    const verdict = verifyTier1(click(goal({ textContent: 'First name' })), {
      ...pageOf([{ i: '9', r: 'btn', n: 'Retry' }]),
      lastActionStatus: 'failure',
      lastActionError: 'element not found',
    });
    expect(verdict.success).toBe(false);
    expect(verdict.lookAheadCaught).toBeUndefined();
  });
});

describe('verifyTier1: a password field', () => {
  it('counts a masked value as typed: the tree never shows what a password field holds', () => {
    const form = pageOf([{ i: 'pw', r: 'inp', n: 'Password' }]);
    const typed = pendingOn('setValue("pw", "{{secret:clinic_password}}")', form);
    const filled = pageOf([{ i: 'pw', r: 'inp', n: 'Password', v: '********' }]);
    expect(verifyTier1(typed, filled)).toMatchObject({ success: true });
    const empty = pageOf([{ i: 'pw', r: 'inp', n: 'Password', v: '' }]);
    expect(verifyTier1(typed, empty)).toMatchObject({ success: false });
  });
});

describe('goalConfirmation: the goal settled by the evidence the step named', () => {
  const done = { description: 'done', completesGoal: true, source: 'llm' as const };
  const confirm = (action: string, expected: object, after: Parameters<typeof pageOf>[1]) => {
    const start = pageOf(
      [
        { i: '1', r: 'btn', n: 'Search' },
        { i: '2', r: 'inp', n: 'Name' },
        { i: '3', r: 'link', n: 'Orders' },
      ],
      { url: 'https://shop.example/' },
    );
    const pending = { ...pendingOn(action, start), expectedOutcome: { ...done, ...expected } };
    const page = pageOf(
      [
        { i: '2', r: 'inp', n: 'Name', v: 'Jas' },
        { i: '9', r: 'txt', n: '3 results for Jas' },
      ],
      { url: 'https://shop.example/', observations: { didDomMutate: true }, ...after },
    );
    return goalConfirmation(pending, page, verifyTier1(pending, page));
  };

  it('confirms by the text it said would appear, the navigation it expected, or the fields', () => {
    expect(confirm('click("1")', { textShouldAppear: '3 results' }, {})).toBe(
      'the page shows “3 results”, as the step expected',
    );
    expect(
      confirm('click("3")', { urlShouldChange: true }, { url: 'https://shop.example/orders' }),
    ).toBe('the page moved to https://shop.example/orders, as the step expected');
    expect(confirm('setValue("2", "Jas")', {}, {})).toBe(
      'every field the goal names holds its value',
    );
  });

  it('a success message new on the page confirms; one shown before the action does not', () => {
    expect(confirm('click("1")', {}, { successMessages: ['Order placed'] })).toBe(
      'the page confirms the goal: “Order placed”',
    );
    expect(confirm('click("1")', {}, { successMessages: ['Search'] })).toBeNull();
  });

  it('leaves the goal to a model without the evidence, a prediction, or with errors shown', () => {
    expect(confirm('click("1")', { textShouldAppear: 'No results' }, {})).toBeNull();
    expect(
      confirm('click("1")', { completesGoal: false, textShouldAppear: '3 results' }, {}),
    ).toBeNull();
    expect(
      confirm(
        'click("1")',
        { textShouldAppear: '3 results' },
        { hasErrors: true, errors: ['Oops'] },
      ),
    ).toBeNull();
  });
});
