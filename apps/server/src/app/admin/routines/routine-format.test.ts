import type { RoutineExpectation } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { expectationText, locatorText, targetText, templateParts } from './routine-format';

describe('routine format', () => {
  it('splits a template into text and parameters, literal braces shown single', () => {
    expect(templateParts('Add {firstName} {lastName} to {{ward}}')).toEqual([
      { kind: 'text', text: 'Add ' },
      { kind: 'parameter', name: 'firstName' },
      { kind: 'text', text: ' ' },
      { kind: 'parameter', name: 'lastName' },
      { kind: 'text', text: ' to {ward}' },
    ]);
    expect(templateParts('No parameters')).toEqual([{ kind: 'text', text: 'No parameters' }]);
  });

  it('says where a target is, first locator first', () => {
    expect(locatorText({ by: 'near', role: 'inp', text: 'Email', side: 'after' })).toBe(
      'inp after “Email”',
    );
    expect(locatorText({ by: 'ordinal', role: 'btn', index: 0 })).toBe('btn #1');
    expect(
      targetText({
        fingerprint: 'btn|Save|f0|#0',
        locators: [
          { by: 'role-name', role: 'btn', name: 'Save' },
          { by: 'label', text: 'Save' },
        ],
      }),
    ).toBe('btn “Save” (+1 more)');
    expect(targetText(null)).toBe('—');
  });

  it('sums up the expected outcome', () => {
    const seen: RoutineExpectation = {
      tier: 1,
      urlChanged: true,
      url: 'https://emr.test/patients/7',
      domChanged: true,
      network: true,
      fieldsHold: false,
      text: ['Patient added'],
      reason: '',
    };
    expect(expectationText(seen)).toBe(
      'tier 1: URL → https://emr.test/patients/7; page changed; shows “Patient added”',
    );
    expect(expectationText({ ...seen, urlChanged: false, domChanged: false, text: [] })).toBe(
      'tier 1: no visible change',
    );
    expect(expectationText(null)).toBe('checked with the next step (chained)');
  });

  it('says what an extract step reads, not that nothing changed', () => {
    const read: RoutineExpectation = {
      tier: 1,
      urlChanged: false,
      url: 'https://shop.test/catalog',
      domChanged: false,
      network: false,
      fieldsHold: false,
      text: [],
      reason: 'Extracted 12 items with 1 model call. So far: 12 unique items from 1 page.',
    };
    expect(targetText(null, 'extract')).toBe('the page’s content');
    expect(expectationText(read, 'extract')).toBe(
      'reads items with the saved extraction (when saved: Extracted 12 items with 1 model call.)',
    );
  });

  it('says what a collect step reads', () => {
    const read: RoutineExpectation = {
      tier: 1,
      urlChanged: false,
      url: 'https://jobs.test/',
      domChanged: false,
      network: false,
      fieldsHold: false,
      text: [],
      reason: 'Collected 12 job items.',
    };
    expect(targetText(null, 'collect')).toBe('the page’s content');
    expect(expectationText(read, 'collect')).toBe(
      'collects the items again, with selectors learned from the saved run’s (when saved: Collected 12 job items.)',
    );
  });
});
