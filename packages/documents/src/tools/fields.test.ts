import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  confidenceTree,
  fieldProblems,
  flattenConfidences,
  lowConfidencePaths,
  schemaProblems,
  shapeConfidence,
  withFieldRemoved,
  withFieldSet,
} from './fields';
import { cellProblem } from './stack-tools';

const INVOICE = {
  vendor: { name: 'Acme', address: 'Main St 1' },
  items: [
    { name: 'Bolt', price: 2 },
    { name: 'Nut', price: 1 },
  ],
  total: 3,
};

describe('fields', () => {
  it('accepts JSON with usable names; names what is wrong otherwise', () => {
    expect(fieldProblems(INVOICE)).toEqual([]);
    expect(fieldProblems({ a: null, b: true, c: [[1]] })).toEqual([]);
    expect(fieldProblems([1])).toEqual(['fields must be a JSON object of field names to values']);
    expect(fieldProblems({ 'a.b': 1, items: [{ $price: 1 }], note: ' ', n: Infinity })).toEqual([
      'field name "a.b" may not contain . [ ] " \\ / or control characters',
      'items[0]: field name "$price" may not start with $',
      'note is an empty string: leave out what the document does not say',
      'n is not a finite number',
    ]);
  });

  it('builds confidences in the shape of the fields; a path covers what is under it', () => {
    const built = confidenceTree(INVOICE, {
      vendor: 0.9,
      items: 0.8,
      'items[1].price': 0.4,
      total: 1,
    });
    expect(built).toEqual({
      ok: true,
      tree: {
        vendor: { name: 0.9, address: 0.9 },
        items: [
          { name: 0.8, price: 0.8 },
          { name: 0.8, price: 0.4 },
        ],
        total: 1,
      },
    });
    if (!built.ok) return;
    expect(flattenConfidences(built.tree)).toEqual({
      'vendor.name': 0.9,
      'vendor.address': 0.9,
      'items[0].name': 0.8,
      'items[0].price': 0.8,
      'items[1].name': 0.8,
      'items[1].price': 0.4,
      total: 1,
    });
    expect(lowConfidencePaths(built.tree)).toEqual(['items[1].price']);
  });

  it('refuses confidences out of 0..1, on paths the fields lack, or missing', () => {
    const built = confidenceTree(INVOICE, { vendor: 1.5, 'items[7]': 0.5, buyer: 0.5, 'a..b': 1 });
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.problems).toEqual([
      'the confidence of vendor is 1.5; confidences are between 0 and 1',
      'confidences name items[7], which is not in the fields',
      'confidences name buyer, which is not in the fields',
      expect.stringMatching(/^Invalid path "a\.\.b"/),
      expect.stringMatching(
        /^no confidence covers vendor\.name, vendor\.address, items\[0\]\.name/,
      ),
    ]);
  });

  it('sets and removes by path with the store rules', () => {
    const renamed = withFieldSet(INVOICE, ['vendor', 'name'], 'Acme Ltd');
    expect(renamed.ok && renamed.fields.vendor).toEqual({ name: 'Acme Ltd', address: 'Main St 1' });
    const appended = withFieldSet(INVOICE, ['items', 2], { name: 'Gear', price: 9 });
    expect(appended.ok && (appended.fields.items as unknown[]).length).toBe(3);
    expect(withFieldSet(INVOICE, ['items', 3], 1)).toEqual({
      ok: false,
      problem: 'items has 2 items; use an index up to 2 (that one appends)',
    });
    expect(withFieldSet(INVOICE, ['buyer', 'name'], 1)).toMatchObject({ ok: false });
    expect(withFieldSet(INVOICE, ['total', 'cents'], 1)).toEqual({
      ok: false,
      problem: 'total is a number, not an object',
    });
    const removed = withFieldRemoved(INVOICE, ['items', 0]);
    expect(removed.ok && removed.fields.items).toEqual([{ name: 'Nut', price: 1 }]);
    expect(withFieldRemoved(INVOICE, ['items', 5])).toMatchObject({ ok: false });
    // The input is never changed.
    expect(INVOICE.items).toHaveLength(2);
    expect(shapeConfidence({ a: [1, { b: 2 }] }, 0.5)).toEqual({ a: [0.5, { b: 0.5 }] });
  });

  it("checks fields against the user's schema", () => {
    const schema = z.object({ total: z.number(), vendor: z.object({ name: z.string() }) });
    expect(schemaProblems(INVOICE, schema)).toEqual([]);
    expect(schemaProblems({ total: '3' }, schema)).toEqual([
      'total: Invalid input: expected number, received string',
      'vendor: Invalid input: expected object, received undefined',
    ]);
    expect(schemaProblems({}, null)).toEqual([]);
  });

  it('checks stack cells by column type', () => {
    expect(cellProblem(12.5, 'number', 'total')).toBeNull();
    expect(cellProblem(null, 'date', 'date')).toBeNull();
    expect(cellProblem('2024-03-14', 'date', 'date')).toBeNull();
    expect(cellProblem('14/03/2024', 'date', 'date')).toBe(
      'date must be a date as YYYY-MM-DD or null, not "14/03/2024"',
    );
    expect(cellProblem(2.5, 'integer', 'qty')).toBe('qty must be a whole number or null, not 2.5');
    expect(cellProblem('1,204.50', 'number', 'total')).toBe(
      'total must be a number or null, not "1,204.50"',
    );
  });
});
