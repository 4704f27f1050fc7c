import { describe, expect, it } from 'vitest';
import {
  fillPlaceholders,
  placeholdersIn,
  SecretRef,
  secretPlaceholder,
  secretsPromptLine,
} from './secrets';

describe('secret placeholders', () => {
  it('finds each name once, in order', () => {
    expect(placeholdersIn('{{secret:a}} and {{secret:b_2}} and {{secret:a}}')).toEqual([
      'a',
      'b_2',
    ]);
    expect(placeholdersIn('{{secret:Upper}} {{ secret:a }} {secret:a}')).toEqual([]);
  });

  it('fills known names and leaves unknown ones as written', () => {
    const values: Record<string, string> = { clinic_password: 'hunter2' };
    expect(
      fillPlaceholders('pw={{secret:clinic_password}} x={{secret:other}}', (n) => values[n]),
    ).toBe('pw=hunter2 x={{secret:other}}');
  });

  it('the prompt line names secrets and sites, never a value', () => {
    const refs = [SecretRef.parse({ name: 'clinic_password', sites: ['127.0.0.1:4000'] })];
    const line = secretsPromptLine(refs);
    expect(line).toContain(`${secretPlaceholder('clinic_password')} (only on 127.0.0.1:4000)`);
    expect(secretsPromptLine([])).toBe('');
    expect(SecretRef.safeParse({ name: '1bad', sites: ['x.example'] }).success).toBe(false);
    expect(SecretRef.safeParse({ name: 'ok', sites: [] }).success).toBe(false);
  });
});
