import type { SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { fingerprintOf, locatorsOf } from './locators';

const tree: SemanticNodeV3[] = [
  { i: 'h', r: 'link', n: 'Home' },
  { i: 's1', r: 'btn', n: 'Save' },
  { i: 'x', r: 'inp', n: '' },
  { i: 's2', r: 'btn', n: 'Save' },
  { i: 'c', r: 'btn', n: 'Cancel', occ: true },
  { i: 'f', r: 'btn', n: 'Save', f: 2 },
];
const node = (id: string) => tree.find((n) => n.i === id) as SemanticNodeV3;

describe('target locators', () => {
  it('fingerprints by role, name, frame and rank, whatever the ids', () => {
    expect(fingerprintOf(node('s1'), tree)).toBe('btn|Save|f0|#0');
    expect(fingerprintOf(node('s2'), tree)).toBe('btn|Save|f0|#1');
    expect(fingerprintOf(node('f'), tree)).toBe('btn|Save|f2|#0');
    const renumbered = tree.map((n) => ({ ...n, i: `${n.i}-new` }));
    expect(fingerprintOf(renumbered[3] as SemanticNodeV3, renumbered)).toBe('btn|Save|f0|#1');
  });

  it('leaves out locators another element shares, and skips unnamed or covered neighbours', () => {
    // Three "Save" buttons: neither role+name nor the name alone tells the second one apart.
    expect(locatorsOf(node('s2'), tree).locators).toEqual([
      { by: 'near', role: 'btn', text: 'Save', side: 'after' },
      { by: 'near', role: 'btn', text: 'Save', side: 'before' },
      { by: 'ordinal', role: 'btn', index: 1 },
    ]);
    // The first of them too: a role+name that a look-alike shares is no locator of it.
    expect(locatorsOf(node('s1'), tree).locators).toEqual([
      { by: 'near', role: 'btn', text: 'Home', side: 'after' },
      { by: 'near', role: 'btn', text: 'Save', side: 'before' },
      { by: 'ordinal', role: 'btn', index: 0 },
    ]);
    expect(locatorsOf(node('h'), tree).locators).toEqual([
      { by: 'role-name', role: 'link', name: 'Home' },
      { by: 'label', text: 'Home' },
      { by: 'near', role: 'link', text: 'Save', side: 'before' },
      { by: 'ordinal', role: 'link', index: 0 },
    ]);
  });
});
