import { describe, expect, it } from 'vitest';
import { escapeTemplate, fillTemplate, parseTemplate, renderTemplate } from './routine-template';

describe('routine templates', () => {
  it('fills parameters and keeps doubled braces literal', () => {
    const template = renderTemplate([
      'Add ',
      { param: 'firstName' },
      ' with {{secret:pw}} and ',
      { param: 'lastName' },
    ]);
    expect(template).toBe('Add {firstName} with {{{{secret:pw}}}} and {lastName}');
    expect(fillTemplate(template, { firstName: 'Jas', lastName: 'Patel' })).toBe(
      'Add Jas with {{secret:pw}} and Patel',
    );
    expect(fillTemplate(escapeTemplate('a {b} }}'), {})).toBe('a {b} }}');
  });

  it('refuses lone braces, bad names and missing values', () => {
    expect(() => parseTemplate('a } b')).toThrow(/lone/);
    expect(() => parseTemplate('a {1x} b')).toThrow(/bad parameter/);
    expect(() => parseTemplate('a {open')).toThrow(/bad parameter/);
    expect(() => fillTemplate('{x}', {})).toThrow(/no value for parameter \{x\}/);
  });
});
