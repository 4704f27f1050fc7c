import { describe, expect, it } from 'vitest';
import { readShape } from './schema-shape';
import { convert, learnDecimalMark, parseNumber, parseNumberStrict, sameValue } from './values';

describe('parseNumber', () => {
  it.each([
    ['$1,249.00', 1249],
    ['4.5 out of 5', 4.5],
    ['12 items', 12],
    ['1.249,00 €', 1249],
    ['12,99 €', 12.99],
    ['USD1,249', 1249],
    ['1.249.000', 1_249_000],
    ['-3 °C', -3],
    ['SKU P-7', 7],
    ['Only 3 left.', 3],
  ])('%s → %d', (text, value) => {
    expect(parseNumber(text)).toBe(value);
  });

  it('answers null without a number', () => {
    expect(parseNumber('N/A')).toBeNull();
  });

  it('groups by no-break, narrow no-break and thin spaces, and the Indian 2-2-3 way', () => {
    expect(parseNumber('3\u202f773,11\u00a0€')).toBe(3773.11);
    expect(parseNumber('1\u00a0234,50 €')).toBe(1234.5);
    expect(parseNumber('₹1,23,450.00')).toBe(123_450);
    // A space joins digits only before a group of three: these are two numbers.
    expect(parseNumber('4 of 5')).toBe(4);
  });

  it('reads in a learned format, and a number written otherwise as nothing', () => {
    expect(parseNumber('1.908\u00a0€', ',')).toBe(1908);
    expect(parseNumber('1.908', '.')).toBe(1.908);
    expect(parseNumber('$1,234.50', ',')).toBeNull();
    expect(parseNumber('1 234,50 €', '.')).toBeNull();
    expect(parseNumber('4.5 out of 5', ',')).toBeNull();
  });

  it('declines an ambiguous number unless the page language decides it', () => {
    expect(parseNumberStrict('1.908 €')).toBeNull();
    expect(parseNumberStrict('1.908 €', () => 'de-DE')).toBe(1908);
    expect(parseNumberStrict('1,234', () => 'en-US')).toBe(1234);
    expect(parseNumberStrict('12,50 €')).toBe(12.5);
  });

  it('learns the decimal mark from the values the model read', () => {
    expect(learnDecimalMark([{ text: '1.234,50 €', value: 1234.5 }])).toBe(',');
    expect(learnDecimalMark([{ text: '$1,234.50', value: 1234.5 }])).toBe('.');
    // Nothing told the marks apart.
    expect(learnDecimalMark([{ text: '219 €', value: 219 }])).toBeUndefined();
  });
});

describe('convert', () => {
  it('reads each schema type from text', () => {
    expect(convert('  Widget \n Pro ', 'string')).toBe('Widget Pro');
    expect(convert('   ', 'string')).toBeNull();
    expect(convert('12 in stock', 'integer')).toBe(12);
    expect(convert('4.5 out of 5', 'integer')).toBeNull();
    expect(convert('Yes', 'boolean')).toBe(true);
    expect(convert('no', 'boolean')).toBe(false);
    expect(convert('In stock', 'boolean')).toBeNull();
  });
});

describe('sameValue', () => {
  it('treats empties alike and ignores whitespace and float noise', () => {
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue('', null)).toBe(true);
    expect(sameValue('a  b', 'a b')).toBe(true);
    expect(sameValue(0.1 + 0.2, 0.3)).toBe(true);
    expect(sameValue(1, '1')).toBe(false);
    expect(sameValue('x', null)).toBe(false);
  });
});

describe('readShape', () => {
  it('reads lists and objects of scalar properties, with nullability', () => {
    const shape = readShape({
      type: 'array',
      items: {
        type: 'object',
        properties: {
          a: { type: 'string' },
          b: { type: ['integer', 'null'] },
          c: { type: 'boolean', nullable: true },
          d: { anyOf: [{ type: 'number' }, { type: 'null' }] },
          e: { enum: ['x', 'y'] },
        },
        required: ['a'],
      },
    });
    expect(shape).toEqual({
      kind: 'list',
      fields: [
        { name: 'a', type: 'string', nullable: false, required: true },
        { name: 'b', type: 'integer', nullable: true, required: false },
        { name: 'c', type: 'boolean', nullable: true, required: false },
        { name: 'd', type: 'number', nullable: true, required: false },
        { name: 'e', type: 'string', nullable: false, required: false },
      ],
    });
  });

  it('says why other shapes are not replayed', () => {
    expect(readShape({ type: 'string' })).toEqual({
      reason: 'the schema is of type string, not an object or an array of objects',
    });
    expect(
      readShape({ type: 'object', properties: { a: { type: 'object', properties: {} } } }),
    ).toEqual({
      reason: 'property "a" is of type object; replay reads scalar properties only',
    });
    expect(
      readShape({ type: 'object', properties: { a: { type: ['string', 'number'] } } }),
    ).toEqual({
      reason: 'property "a" is not of one type (string, number)',
    });
    expect(readShape({ type: 'array', items: { type: 'string' } })).toEqual({
      reason: 'the schema is an array of something other than objects',
    });
  });
});
