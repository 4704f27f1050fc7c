import { describe, expect, it } from 'vitest';
import { describeOptions, matchOption } from './option-match';

const options = [
  { text: 'New Zealand', value: 'nz' },
  { text: 'Australia', value: 'au' },
  { text: 'Austria', value: 'at' },
  { text: 'United Kingdom', value: 'uk' },
];

describe('matchOption', () => {
  it('prefers exact text, then value, then a unique prefix or substring', () => {
    expect(matchOption(options, 'australia')).toEqual({ index: 1 });
    expect(matchOption(options, 'AT')).toEqual({ index: 2 });
    expect(matchOption(options, 'New')).toEqual({ index: 0 });
    expect(matchOption(options, 'kingdom')).toEqual({ index: 3 });
  });

  it('refuses ambiguous or missing options instead of guessing', () => {
    expect(matchOption(options, 'Aus')).toEqual({ error: 'ambiguous', candidates: [1, 2] });
    expect(matchOption(options, 'France')).toEqual({ error: 'none', candidates: [] });
    expect(matchOption(options, '')).toEqual({ error: 'none', candidates: [] });
  });

  it('lists options for error messages', () => {
    expect(describeOptions(options, 2)).toBe('"New Zealand", "Australia", … (4 in all)');
  });
});
