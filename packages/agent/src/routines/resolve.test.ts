import type { RoutineTarget, SemanticNodeV3 } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { fingerprintOf, locatorsOf } from './locators';
import { fingerprintsOf, resolveTarget, stillDescribes } from './resolve';

// The add-patient form as the first run saw it.
const form: SemanticNodeV3[] = [
  { i: '1', r: 'link', n: 'Patients' },
  { i: '2', r: 'inp', n: 'First name' },
  { i: '3', r: 'inp', n: 'Last name' },
  { i: '4', r: 'sel', n: 'Gender' },
  { i: '5', r: 'btn', n: 'Save' },
  { i: '6', r: 'btn', n: 'Cancel' },
];
const recorded = (id: string, tree = form): RoutineTarget => {
  const node = tree.find((n) => n.i === id) as SemanticNodeV3;
  return locatorsOf(node, tree);
};
const renumber = (tree: SemanticNodeV3[]) => tree.map((n) => ({ ...n, i: `x${n.i}9` }));

describe('resolveTarget', () => {
  it('finds each element again by its fingerprint on the same page', () => {
    for (const node of form)
      expect(resolveTarget(recorded(node.i), form)).toEqual({ id: node.i, by: 'fingerprint' });
  });

  it('survives new ids and a field inserted before the target', () => {
    const page = renumber([
      form[0] as SemanticNodeV3,
      { i: 'new', r: 'inp', n: 'Title' },
      ...form.slice(1),
    ]);
    expect(resolveTarget(recorded('3'), page)).toEqual({ id: 'x39', by: 'fingerprint' });
    expect(resolveTarget(recorded('5'), page)).toEqual({ id: 'x59', by: 'fingerprint' });
    // The label changed too: the name alone is gone, the neighbourhood still says which one.
    const relabelled = page.map((n) => (n.i === 'x39' ? { ...n, n: 'Surname' } : n));
    expect(resolveTarget(recorded('3'), relabelled)).toEqual({ id: 'x39', by: 'near' });
    // A button renamed: its role next to "Gender" is still the one.
    const renamed = page.map((n) => (n.i === 'x59' ? { ...n, n: 'Save patient' } : n));
    expect(resolveTarget(recorded('5'), renamed)).toEqual({ id: 'x59', by: 'near' });
  });

  it('tries the locators in order when the fingerprint is gone, role changes included', () => {
    // A button that became a link keeps its name: found by the name alone.
    const page = form.map((n) => (n.i === '5' ? { ...n, i: '50', r: 'link' } : n));
    expect(resolveTarget(recorded('5'), page)).toEqual({ id: '50', by: 'label' });
  });

  it('refuses when the only locator left fits two elements', () => {
    const target: RoutineTarget = {
      fingerprint: 'inp|Email|f0|#0',
      locators: [
        { by: 'role-name', role: 'inp', name: 'Email' },
        { by: 'label', text: 'E-mail' },
      ],
    };
    const page: SemanticNodeV3[] = [
      { i: 'a', r: 'txt', n: 'E-mail' },
      { i: 'b', r: 'inp', n: 'E-mail' },
    ];
    const result = resolveTarget(target, page);
    expect(result).toHaveProperty('unresolved');
    expect('unresolved' in result && result.unresolved).toMatch(/“E-mail”: 2/);
    // One of them gone: the label finds the other.
    expect(resolveTarget(target, page.slice(1))).toEqual({ id: 'b', by: 'label' });
  });

  it('counts only uncovered elements when it asks whether a locator fits one', () => {
    // As locators.ts judged uniqueness when it recorded them: a covered copy is not a rival.
    const target: RoutineTarget = {
      fingerprint: 'inp|Email|f0|#0',
      locators: [{ by: 'label', text: 'E-mail' }],
    };
    const page: SemanticNodeV3[] = [
      { i: 'a', r: 'inp', n: 'E-mail', occ: true },
      { i: 'b', r: 'inp', n: 'E-mail' },
    ];
    expect(resolveTarget(target, page)).toEqual({ id: 'b', by: 'label' });
  });

  it('never returns a covered or disabled element', () => {
    const covered = form.map((n) => (n.i === '5' ? { ...n, occ: true } : n));
    expect(resolveTarget(recorded('5'), covered)).toEqual({
      unresolved: '“Save” is covered by another element',
    });
    const disabled = form.map((n) => (n.i === '5' ? { ...n, s: 'focused,disabled' } : n));
    expect(resolveTarget(recorded('5'), disabled)).toEqual({ unresolved: '“Save” is disabled' });
    // Found by a locator rather than the fingerprint: the same rule.
    const renamedDisabled = form.map((n) =>
      n.i === '5' ? { ...n, n: 'Save patient', s: 'disabled' } : n,
    );
    expect(resolveTarget(recorded('5'), renamedDisabled)).toEqual({
      unresolved: '“Save patient” is disabled',
    });
  });

  it('trusts a fingerprint among look-alikes only when a name or neighbour agrees', () => {
    const grid: SemanticNodeV3[] = [
      { i: 'h1', r: 'link', n: 'Kettle' },
      { i: 'c1', r: 'btn', n: 'Add to cart' },
      { i: 'h2', r: 'link', n: 'Toaster' },
      { i: 'c2', r: 'btn', n: 'Add to cart' },
    ];
    const toaster = recorded('c2', grid);
    expect(toaster.fingerprint).toBe('btn|Add to cart|f0|#1');
    expect(resolveTarget(toaster, grid)).toEqual({ id: 'c2', by: 'fingerprint' });
    // A card inserted first: rank #1 is now the kettle's button; "after Toaster" still knows.
    const more = renumber([
      { i: 'h0', r: 'link', n: 'Blender' },
      { i: 'c0', r: 'btn', n: 'Add to cart' },
      ...grid,
    ]);
    expect(resolveTarget(toaster, more)).toEqual({ id: 'xc29', by: 'near' });
    const soldOut = more.map((n) => (n.i === 'xc29' ? { ...n, s: 'disabled' } : n));
    expect(resolveTarget(toaster, soldOut)).toEqual({ unresolved: '“Add to cart” is disabled' });
    // Only ranks left (the names around are gone): a rank proves nothing.
    const anonymous = more.map((n) => (n.r === 'link' ? { ...n, n: '' } : n));
    expect(resolveTarget(toaster, anonymous)).toEqual({
      unresolved: '“Add to cart” has or had look-alikes, and only its rank tells which',
    });
    // The kettle's card removed: the toaster's button is now alone and first, but it is not
    // the kettle's; its rank and ordinal both say #0, which is no proof.
    const kettle = recorded('c1', grid);
    expect(resolveTarget(kettle, grid)).toEqual({ id: 'c1', by: 'fingerprint' });
    expect(resolveTarget(kettle, grid.slice(2))).toEqual({
      unresolved: '“Add to cart” has or had look-alikes, and only its rank tells which',
    });
  });

  it('takes only the element its filled name names, never the one recorded', () => {
    const list: SemanticNodeV3[] = ['INV-1003', 'INV-10045', 'INV-1004'].flatMap((id, k) => [
      { i: `s${k}`, r: 'txt', n: id },
      { i: `a${k}`, r: 'btn', n: `Approve ${id}` },
    ]);
    // As the first run recorded "Approve INV-1003", its name filled with this run's INV-1004,
    // but a fingerprint and locators that still describe the old button.
    const old = recorded('a0', list);
    const filled = (name: string): RoutineTarget => ({ ...old, name });
    expect(resolveTarget(old, list)).toEqual({ id: 'a0', by: 'fingerprint' });
    const wanted = filled('Approve INV-1004');
    expect(resolveTarget(wanted, list)).toEqual({
      unresolved: expect.stringMatching(/^no element named “Approve INV-1004” has the fingerprint/),
    });
    expect(stillDescribes(wanted, list, 'a0')).toBe(false);
    // Rewritten for this run (step-node.ts targetFor): the exact name, not its look-alike.
    const rewritten: RoutineTarget = {
      fingerprint: 'btn|Approve INV-1004|f0|#0',
      locators: [{ by: 'role-name', role: 'btn', name: 'Approve INV-1004' }],
      name: 'Approve INV-1004',
    };
    expect(resolveTarget(rewritten, list)).toEqual({ id: 'a2', by: 'fingerprint' });
    // A locator that finds the old element finds nothing; the name is compared ignoring case.
    const near: RoutineTarget = {
      fingerprint: 'btn|Approve INV-1003|f0|#0',
      locators: [
        { by: 'ordinal', role: 'btn', index: 0 },
        { by: 'label', text: 'Approve INV-1004' },
      ],
      name: 'approve inv-1004',
    };
    expect(resolveTarget(near, list)).toEqual({ id: 'a2', by: 'label' });
    // Gone from the page: a heal, never the nearest look-alike.
    expect(resolveTarget(rewritten, list.slice(0, 4))).toEqual({
      unresolved: expect.stringMatching(/^no element named “Approve INV-1004”/),
    });
    // A template still holding a parameter constrains nothing (targetFor fills it first).
    expect(resolveTarget(filled('Approve {item}'), list)).toEqual({ id: 'a0', by: 'fingerprint' });
  });

  it('computes the fingerprints locators.ts records, in one pass', () => {
    const tree: SemanticNodeV3[] = [
      ...form,
      { i: '7', r: 'btn', n: 'Save ', f: 2 },
      { i: '8', r: 'btn', n: 'Save', occ: true },
    ];
    expect(fingerprintsOf(tree)).toEqual(tree.map((n) => fingerprintOf(n, tree)));
  });
});
