import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import type { PageState } from '../page/page-state';
import { validateAction } from './action-check';
import { policyOf } from './action-policy';
import { stateWith } from '../testing/state';

describe('validateAction', () => {
  const tree: SemanticNodeV3[] = [
    { i: '1', r: 'btn', n: 'Save' },
    { i: '2', r: 'btn', n: 'Delete', occ: true },
    { i: '3', r: 'btn', n: 'Archive', s: 'disabled' },
  ];
  const page = { url: 'https://a.example/', tree } as PageState;
  const policy = policyOf(stateWith({ sites: ['a.example'] }));
  it('accepts grammar actions on ids of the current tree only', () => {
    expect(validateAction("click('1')", page, policy)).toMatchObject({
      ok: true,
      actionString: 'click("1")',
    });
    expect(validateAction('click("9")', page, policy)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not on the current page/),
    });
    expect(validateAction('click("2")', page, policy)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/covered/),
    });
    expect(validateAction('click("3")', page, policy)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/disabled/),
    });
    expect(validateAction('rm -rf /', page, policy).ok).toBe(false);
    expect(validateAction('navigate("javascript:alert(1)")', page, policy).ok).toBe(false);
  });
});
