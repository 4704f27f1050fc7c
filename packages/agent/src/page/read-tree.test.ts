import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { renderTree } from './page-state';
import { elementsIn, named, usable } from './read-tree';

const tree: SemanticNodeV3[] = [
  { i: '1', r: 'btn', n: 'Save' },
  { i: '2', r: 'inp', n: 'First name', v: 'Jas "J" Patel', s: 'required' },
  { i: '3', r: 'chk', n: 'Consent', s: 'checked,disabled' },
  { i: 'f1.4', r: 'link', n: 'Next page', f: 1, occ: true },
  { i: '5', r: 'sel', n: 'Reason' },
];

describe('elementsIn (the reader of renderTree)', () => {
  it('gets every element back from the lines renderTree writes', () => {
    expect(elementsIn(renderTree(tree))).toEqual([
      { id: '1', role: 'btn', name: 'Save', value: '', states: [], occluded: false },
      {
        id: '2',
        role: 'inp',
        name: 'First name',
        value: 'Jas "J" Patel',
        states: ['required'],
        occluded: false,
      },
      {
        id: '3',
        role: 'chk',
        name: 'Consent',
        value: '',
        states: ['checked', 'disabled'],
        occluded: false,
      },
      { id: 'f1.4', role: 'link', name: 'Next page', value: '', states: [], occluded: true },
      { id: '5', role: 'sel', name: 'Reason', value: '', states: [], occluded: false },
    ]);
  });

  it('lists a run of alike elements on one line, each id still read back', () => {
    const grid: SemanticNodeV3[] = [
      ...['8', '9', '10', '11'].map((i) => ({ i, r: 'btn' as const, n: 'Add to cart' })),
      { i: '12', r: 'btn', n: 'Add to cart', s: 'disabled' },
      ...['13', '14'].map((i) => ({ i, r: 'btn' as const, n: 'Add to cart' })),
    ];
    const text = renderTree(grid);
    // A run of three or more shares a line; a shorter one keeps a line per element.
    expect(text).toBe(
      '8,9,10,11 btn "Add to cart"\n12 btn "Add to cart" [disabled]\n13 btn "Add to cart"\n14 btn "Add to cart"',
    );
    expect(elementsIn(text).map((e) => `${e.id}${e.states.join('')}`)).toEqual([
      '8',
      '9',
      '10',
      '11',
      '12disabled',
      '13',
      '14',
    ]);
  });

  it("reads hybrid mode's lines, which end with the element's centre", () => {
    const withPoints = tree.map((n) => ({ ...n, xy: [412.4, 300] as [number, number] }));
    expect(elementsIn(renderTree(withPoints, { points: true })).map((e) => e.id)).toEqual(
      tree.map((n) => n.i),
    );
  });

  it('finds elements by name and tells the usable ones', () => {
    const elements = elementsIn(renderTree(tree));
    expect(named(elements, '  first   NAME ').map((e) => e.id)).toEqual(['2']);
    expect(elements.filter(usable).map((e) => e.id)).toEqual(['1', '2', '5']);
  });
});
