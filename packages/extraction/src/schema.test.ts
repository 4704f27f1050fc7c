// Schema-enforced extraction (docs/specs.md, "schema-enforced extraction"): JSON Schema → a
// validator, and the features that send extraction to the free-text path with a warning.
import { describe, expect, it } from 'vitest';
import { DEFAULT_INPUT_LIMITS, InputTooComplexError } from '@tandem/contracts';
import {
  checkOutputSchema,
  checkSchemaBudget,
  schemaFields,
  schemaHash,
  unsupportedFeatures,
} from './schema';

const productList = {
  type: 'array',
  items: {
    type: 'object',
    properties: { name: { type: 'string' }, price: { type: 'number' }, rating: { type: 'number' } },
    required: ['name', 'price'],
  },
};

function check(schema: Record<string, unknown>) {
  const checked = checkOutputSchema(schema);
  if (!checked.ok) throw new Error(checked.warning);
  return checked.schema;
}

describe('checkOutputSchema', () => {
  it('validates flat objects', () => {
    const { zod, isArray } = check({
      type: 'object',
      properties: { title: { type: 'string' }, count: { type: 'integer' } },
      required: ['title'],
    });
    expect(isArray).toBe(false);
    expect(zod.parse({ title: 'A', count: 3 })).toEqual({ title: 'A', count: 3 });
    expect(zod.safeParse({ count: 3 }).success).toBe(false);
    expect(zod.safeParse({ title: 'A', count: 2.5 }).success).toBe(false);
  });

  it('validates nested objects and arrays of objects', () => {
    const { zod } = check({
      type: 'object',
      properties: {
        vendor: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        items: productList,
      },
      required: ['vendor'],
    });
    const value = { vendor: { name: 'Acme' }, items: [{ name: 'Chair', price: 12 }] };
    expect(zod.parse(value)).toEqual(value);
    expect(zod.safeParse({ vendor: {}, items: [] }).success).toBe(false);
    expect(zod.safeParse({ vendor: { name: 'A' }, items: [{ price: 1 }] }).success).toBe(false);
  });

  it('validates arrays and primitives, enums and nullable types', () => {
    expect(check(productList).isArray).toBe(true);
    expect(check({ type: 'string' }).zod.parse('x')).toBe('x');
    expect(check({ type: 'number' }).zod.safeParse('1').success).toBe(false);
    const { zod } = check({
      type: 'object',
      properties: {
        stock: { type: 'string', enum: ['In stock', 'Out of stock'] },
        note: { type: ['string', 'null'] },
      },
    });
    expect(zod.parse({ stock: 'In stock', note: null })).toEqual({ stock: 'In stock', note: null });
    expect(zod.safeParse({ stock: 'Maybe' }).success).toBe(false);
  });

  it('relaxes required object fields for a chunk, never an array item’s', () => {
    const objectSchema = check({
      type: 'object',
      properties: { total: { type: 'number' }, vendor: { type: 'string' } },
      required: ['total', 'vendor'],
    });
    expect(objectSchema.chunkZod.safeParse({ total: 3 }).success).toBe(true);
    expect(objectSchema.zod.safeParse({ total: 3 }).success).toBe(false);
    const list = check(productList);
    expect(list.chunkZod.safeParse([{ name: 'Chair' }]).success).toBe(false);
  });

  it('sends unsupported features to the free-text path with a warning naming them', () => {
    for (const schema of [
      { anyOf: [{ type: 'string' }, { type: 'number' }] },
      {
        type: 'object',
        properties: { a: { $ref: '#/$defs/a' } },
        $defs: { a: { type: 'string' } },
      },
      { type: 'object', patternProperties: { '^x': { type: 'string' } } },
      { type: 'array', items: { oneOf: [{ type: 'string' }] } },
      { type: 'date' },
    ]) {
      const checked = checkOutputSchema(schema);
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.warning).toMatch(/cannot enforce.*free text/);
    }
    expect(unsupportedFeatures({ type: 'array', items: { oneOf: [] } })).toEqual([
      'oneOf at (root)[]',
    ]);
  });
});

describe('schemaHash / schemaFields', () => {
  it('is the same for the same schema written in another key order', () => {
    const reordered = {
      items: {
        required: ['name', 'price'],
        properties: {
          rating: { type: 'number' },
          price: { type: 'number' },
          name: { type: 'string' },
        },
        type: 'object',
      },
      type: 'array',
    };
    expect(schemaHash(reordered)).toBe(schemaHash(productList));
    expect(schemaHash({ ...productList, type: 'object' })).not.toBe(schemaHash(productList));
  });

  it('lists the fields of an item or an object', () => {
    expect(schemaFields(productList)).toEqual(['name', 'price', 'rating']);
    expect(schemaFields({ type: 'string' })).toEqual([]);
  });
});

describe('checkSchemaBudget', () => {
  const nested = (depth: number): Record<string, unknown> => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 1; i < depth; i++) schema = { type: 'array', items: schema };
    return schema;
  };

  it('takes a schema of SCHEMA_MAX_DEPTH levels and refuses one more, naming the setting', () => {
    expect(() => checkSchemaBudget(nested(12), DEFAULT_INPUT_LIMITS)).not.toThrow();
    expect(() => checkSchemaBudget(nested(13), DEFAULT_INPUT_LIMITS)).toThrow(
      new InputTooComplexError(
        'schemaMaxDepth',
        'outputSchema nests at least 13 levels; the limit is 12 levels (SCHEMA_MAX_DEPTH).',
      ),
    );
  });

  it('refuses a schema 6,000 levels deep without running out of stack', () => {
    expect(() => checkSchemaBudget(nested(6_000), DEFAULT_INPUT_LIMITS)).toThrow(
      /SCHEMA_MAX_DEPTH/,
    );
  });

  it('counts every property and item schema against SCHEMA_MAX_NODES', () => {
    const wide = (n: number) => ({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string' }]),
      ),
    });
    expect(() => checkSchemaBudget(wide(999), DEFAULT_INPUT_LIMITS)).not.toThrow();
    expect(() => checkSchemaBudget(wide(1_000), DEFAULT_INPUT_LIMITS)).toThrow(
      'outputSchema has at least 1,001 schemas; the limit is 1,000 schemas (SCHEMA_MAX_NODES).',
    );
  });
});
