import { describe, expect, it } from 'vitest';
import { FieldPath, fieldNameProblem, formatFieldPath, parseFieldPath } from './field-path';

describe('field paths', () => {
  it('reads names and indexes, and writes them back the same', () => {
    for (const [path, segments] of [
      ['total', ['total']],
      ['vendor.name', ['vendor', 'name']],
      ['items[2].price', ['items', 2, 'price']],
      ['groups[0].tags[12]', ['groups', 0, 'tags', 12]],
      ['Invoice number', ['Invoice number']],
      ['patient.date of birth', ['patient', 'date of birth']],
    ] as const) {
      expect(parseFieldPath(path)).toEqual({ ok: true, segments });
      expect(formatFieldPath(segments)).toBe(path);
    }
  });

  it('refuses what either store could read two ways, with a reason the model can act on', () => {
    for (const path of [
      '',
      '[0]',
      '.a',
      'a.',
      'a..b',
      'a[x]',
      'a[-1]',
      'a.$set',
      'items.2',
      'a."b"',
      'a/b',
      'a[1',
      ' a',
      '__proto__',
      'items[0].__proto__',
    ]) {
      const parsed = parseFieldPath(path);
      expect(parsed.ok, path).toBe(false);
      if (!parsed.ok) expect(parsed.reason).toMatch(/Invalid path .*"vendor\.name"/s);
    }
    expect(parseFieldPath('a.b.c.d.e.f.g.h.i.j.k.l.m').ok).toBe(false);
    expect(fieldNameProblem('a\u0000b')).toMatch(/control/);
    expect(FieldPath.safeParse('items[1].price').success).toBe(true);
    expect(FieldPath.safeParse('items..price').success).toBe(false);
  });
});
