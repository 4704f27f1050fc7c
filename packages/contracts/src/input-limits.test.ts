import { describe, expect, it } from 'vitest';
import {
  checkLimit,
  DEFAULT_INPUT_LIMITS,
  describeLimit,
  INPUT_LIMITS,
  InputTooComplexError,
  jsonNesting,
} from './input-limits';

describe('input limits', () => {
  it('names every limit by a setting of its own', () => {
    const settings = Object.values(INPUT_LIMITS).map((spec) => spec.setting);
    expect(new Set(settings).size).toBe(settings.length);
    for (const setting of settings) expect(setting).toMatch(/^[A-Z][A-Z0-9_]+$/);
    expect(DEFAULT_INPUT_LIMITS.pdfMaxPages).toBe(INPUT_LIMITS.pdfMaxPages.default);
  });

  it('says what was found, the limit and its setting', () => {
    expect(describeLimit('zipMaxRatio', 100)).toBe('100× (ZIP_MAX_RATIO)');
    expect(() =>
      checkLimit(DEFAULT_INPUT_LIMITS, 'csvMaxColumns', 100_000, 'The file has'),
    ).toThrow(
      new InputTooComplexError(
        'csvMaxColumns',
        'The file has 100,000 columns; the limit is 1,000 columns (CSV_MAX_COLUMNS).',
      ),
    );
    expect(() => checkLimit(DEFAULT_INPUT_LIMITS, 'htmlMaxMb', 8.25, 'The page is')).toThrow(
      'The page is 8.3 MB; the limit is 8 MB (HTML_MAX_MB).',
    );
    expect(() => checkLimit(DEFAULT_INPUT_LIMITS, 'csvMaxColumns', 1_000, 'x')).not.toThrow();
  });
});

describe('jsonNesting', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonNesting('1')).toBe(0);
    expect(jsonNesting('{"a":[1,{"b":"[[[{{{"}]}')).toBe(3);
    expect(jsonNesting('["\\"[[["]')).toBe(1);
  });

  it('stops reading once past the depth asked about', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(jsonNesting(deep, 64)).toBe(65);
    expect(jsonNesting(deep)).toBe(1_000_000);
  });
});
