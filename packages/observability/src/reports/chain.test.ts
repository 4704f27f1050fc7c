import { describe, expect, it } from 'vitest';
import { splitChain } from './chain';

describe('splitChain', () => {
  it('splits a stored chain into its actions', () => {
    expect(splitChain('setValue(3, "Ann"); setValue(4, "Lee"); click(9)')).toEqual([
      'setValue(3, "Ann")',
      'setValue(4, "Lee")',
      'click(9)',
    ]);
  });

  it('keeps a quoted "; " inside one action', () => {
    expect(splitChain('setValue(3, "a; b"); click(9)')).toEqual([
      'setValue(3, "a; b")',
      'click(9)',
    ]);
    expect(splitChain('setValue(3, "a; b")')).toEqual(['setValue(3, "a; b")']);
  });

  it('leaves a single or unparseable action as stored', () => {
    expect(splitChain('click(9)')).toEqual(['click(9)']);
    expect(splitChain('click(9); frobnicate(1)')).toEqual(['click(9); frobnicate(1)']);
  });
});
