import { describe, expect, it } from 'vitest';
import {
  ElementId,
  KNOWN_NODE_ROLES,
  SemanticNodeV3,
  V3AdvancedFields,
  Viewport,
} from './semantic-tree';

describe('SemanticNodeV3', () => {
  it('accepts the minimal node and every optional key', () => {
    expect(SemanticNodeV3.parse({ i: '1', r: 'btn' })).toStrictEqual({ i: '1', r: 'btn' });
    const full = {
      i: 'f2:31',
      r: 'sel',
      n: 'Country',
      v: 'NZ',
      s: 'expanded,required',
      xy: [12.5, 40],
      f: 2,
      box: [0, 30, 25, 20],
      scr: { depth: '0%', h: 600 },
      occ: false,
    };
    expect(SemanticNodeV3.parse(full)).toStrictEqual(full);
  });

  it('lets unknown short roles through and drops unknown keys', () => {
    expect(SemanticNodeV3.parse({ i: '1', r: 'treeitem', extra: 1 })).toStrictEqual({
      i: '1',
      r: 'treeitem',
    });
    expect(Object.keys(KNOWN_NODE_ROLES)).toEqual(
      expect.arrayContaining(['btn', 'inp', 'link', 'chk', 'sel']),
    );
  });

  it('rejects malformed geometry and frames', () => {
    expect(SemanticNodeV3.safeParse({ i: '1', r: 'btn', xy: [1, 2, 3] }).success).toBe(false);
    expect(SemanticNodeV3.safeParse({ i: '1', r: 'btn', box: [0, 0, -1, 5] }).success).toBe(false);
    expect(SemanticNodeV3.safeParse({ i: '1', r: 'btn', f: 1.5 }).success).toBe(false);
    expect(SemanticNodeV3.safeParse({ i: '1', r: 'btn', xy: [Infinity, 0] }).success).toBe(false);
    expect(SemanticNodeV3.safeParse({ i: '1', r: '' }).success).toBe(false);
  });

  it('uses the grammar-safe id charset', () => {
    for (const id of ['14', 'a-b', 'f1:2', 'x_y.z'])
      expect(ElementId.safeParse(id).success).toBe(true);
    for (const id of ['', 'a b', '1)', '"1"', 'x'.repeat(65)])
      expect(ElementId.safeParse(id).success).toBe(false);
  });
});

describe('Viewport and advanced fields', () => {
  it('validates viewport dimensions', () => {
    expect(Viewport.parse({ width: 1280, height: 800 })).toStrictEqual({
      width: 1280,
      height: 800,
    });
    expect(Viewport.safeParse({ width: 0, height: 800 }).success).toBe(false);
  });

  it('caps the Sentinel lists', () => {
    expect(V3AdvancedFields.parse({ errors_detected: ['Required'] }).errors_detected).toStrictEqual(
      ['Required'],
    );
    const tooMany = V3AdvancedFields.safeParse({
      recentEvents: Array.from({ length: 201 }, () => 'e'),
    });
    expect(tooMany.success).toBe(false);
    expect(tooMany.error?.issues[0]?.message).toBe('at most 200 recent events');
  });
});
