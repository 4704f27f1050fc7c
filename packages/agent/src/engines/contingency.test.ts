import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { pageOf } from '../testing/state';
import { matchContingency, quotedPhrases } from './contingency';

const banner: SemanticNodeV3[] = [
  { i: 'go', r: 'btn', n: 'Continue', occ: true },
  { i: 'c1', r: 'dialog', n: 'We use cookies' },
  { i: 'ok', r: 'btn', n: 'Accept cookies' },
];
const cookies = { condition: 'a banner says "We use cookies"', action: "Click 'Accept cookies'" };
const expired = { condition: 'a dialog says “Session expired”', action: "Click 'Sign in'" };

describe('quotedPhrases', () => {
  it('reads straight and curly quotes', () => {
    expect(quotedPhrases('a banner "We use cookies" or “Consent” or ‘Privacy’')).toEqual([
      'We use cookies',
      'Consent',
      'Privacy',
    ]);
    expect(quotedPhrases('no quotes here')).toEqual([]);
  });
});

describe('matchContingency', () => {
  it('applies the first contingency whose quoted text is shown and whose action resolves', () => {
    const match = matchContingency({ contingencies: [expired, cookies] }, pageOf(banner));
    expect(match).toEqual({
      contingency: cookies,
      action: { name: 'click', args: { id: 'ok' } },
      why: 'contingency "a banner says "We use cookies""',
    });
  });

  it('does not act when the condition is not on the page, even if the target is', () => {
    const noBanner = pageOf([{ i: 'ok', r: 'btn', n: 'Accept cookies' }]);
    expect(matchContingency({ contingencies: [cookies] }, noBanner)).toBeNull();
  });

  it('does not act when the action names nothing on the page, or something ambiguous', () => {
    const twice = pageOf([...banner, { i: 'ok2', r: 'btn', n: 'Accept cookies' }]);
    expect(matchContingency({ contingencies: [cookies] }, twice)).toBeNull();
    const page = pageOf([{ i: 'c1', r: 'dialog', n: 'We use cookies' }]);
    expect(matchContingency({ contingencies: [cookies] }, page)).toBeNull();
  });

  it('skips a contingency already tried on this step, and steps without any', () => {
    expect(
      matchContingency({ contingencies: [cookies] }, pageOf(banner), ["Click 'Accept cookies'"]),
    ).toBeNull();
    expect(matchContingency({}, pageOf(banner))).toBeNull();
    expect(matchContingency(undefined, pageOf(banner))).toBeNull();
  });

  it('a condition without quotes rests on its action alone', () => {
    const unquoted = {
      condition: 'a consent banner covers the page',
      action: "Click 'Accept cookies'",
    };
    expect(matchContingency({ contingencies: [unquoted] }, pageOf(banner))?.action).toEqual({
      name: 'click',
      args: { id: 'ok' },
    });
  });
});
