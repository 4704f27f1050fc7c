import { KNOWN_NODE_ROLES } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { ARIA_ROLE_CODES, ariaRoleCode, inputRoleCode } from './roles';

describe('role codes', () => {
  it('maps ARIA widget roles, taking the first known token', () => {
    expect(ariaRoleCode('button')).toBe('btn');
    expect(ariaRoleCode('switch checkbox')).toBe('sw');
    expect(ariaRoleCode(' Menuitem ')).toBe('menu');
    expect(ariaRoleCode('presentation')).toBeUndefined();
    expect(ariaRoleCode('region')).toBeUndefined();
  });

  it('maps input types', () => {
    expect(inputRoleCode('', false)).toBe('inp');
    expect(inputRoleCode('password', false)).toBe('inp');
    expect(inputRoleCode('checkbox', false)).toBe('chk');
    expect(inputRoleCode('radio', false)).toBe('radio');
    expect(inputRoleCode('range', false)).toBe('sld');
    expect(inputRoleCode('submit', false)).toBe('btn');
    expect(inputRoleCode('image', false)).toBe('btn');
    expect(inputRoleCode('file', false)).toBe('file');
    expect(inputRoleCode('text', true)).toBe('combo');
    expect(inputRoleCode('hidden', false)).toBeUndefined();
    expect(inputRoleCode('future-type', false)).toBe('inp');
  });

  it('only emits codes the contract knows, plus documented pass-throughs', () => {
    const known = new Set([...Object.keys(KNOWN_NODE_ROLES), 'treeitem', 'file']);
    for (const code of Object.values(ARIA_ROLE_CODES)) expect(known.has(code)).toBe(true);
  });
});
