import { describe, expect, it } from 'vitest';
import { readShape } from './schema-shape';
import { convert, parseNumber, sameValue } from './values';

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
