import { describe, expect, it } from 'vitest';
import { dedupe, deepMerge, mergeChunkData } from './merge';

describe('merge', () => {
  it('dedupes by exact match on every field, whatever the key order', () => {
    const { items, duplicates } = dedupe([
      { name: 'Chair', price: 12 },
      { price: 12, name: 'Chair' },
      { name: 'Chair', price: 13 },
    ]);
    expect(items).toEqual([
      { name: 'Chair', price: 12 },
      { name: 'Chair', price: 13 },
    ]);
    expect(duplicates).toBe(1);
  });

  it('deep-merges objects: later scalars win, null never erases, arrays concatenated once', () => {
    expect(
      deepMerge(
        { vendor: { name: 'Acme', city: 'Oslo' }, total: 10, tags: ['a'] },
        { vendor: { city: 'Bergen' }, total: 12, tags: ['a', 'b'], note: null },
      ),
    ).toEqual({
      vendor: { name: 'Acme', city: 'Bergen' },
      total: 12,
      tags: ['a', 'b'],
      note: null,
    });
    expect(deepMerge({ title: 'Kept' }, { title: '' })).toEqual({ title: 'Kept' });
    expect(deepMerge({ title: 'Kept' }, { title: null })).toEqual({ title: 'Kept' });
  });

  it('concatenates array chunks, merges object chunks, joins text under context headers', () => {
    expect(
      mergeChunkData(
        [
          { data: [{ n: 1 }, { n: 2 }], context: '' },
          { data: [{ n: 2 }, { n: 3 }], context: '' },
        ],
        'array',
      ),
    ).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(
      mergeChunkData(
        [
          { data: { a: 1 }, context: '' },
          { data: { b: 2 }, context: '' },
        ],
        'object',
      ),
    ).toEqual({ a: 1, b: 2 });
    expect(
      mergeChunkData(
        [
          { data: 'First part.', context: '# Guide' },
          { data: '', context: '# Guide > ## Empty' },
          { data: 'Second part.', context: '# Guide > ## Install' },
        ],
        'text',
      ),
    ).toBe('## # Guide\n\nFirst part.\n\n---\n\n## # Guide > ## Install\n\nSecond part.');
  });
});
