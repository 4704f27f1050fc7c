import { describe, expect, it } from 'vitest';
import { DEMO_VARIANTS, isDemoVariant, markVariant, parseVariantRequest } from './variants';

describe('parseVariantRequest', () => {
  it('takes every known variant and null for the plain site', () => {
    for (const name of Object.keys(DEMO_VARIANTS))
      expect(parseVariantRequest({ name })).toEqual({ ok: true, variant: name });
    expect(parseVariantRequest({ name: null })).toEqual({ ok: true, variant: null });
  });

  it('refuses unknown names, other types and bodies without a name', () => {
    for (const body of [
      { name: 'rename' },
      { name: 'toString' },
      { name: 3 },
      { name: '' },
      {},
      null,
      [],
      'rename-submit',
    ]) {
      const parsed = parseVariantRequest(body);
      expect(parsed.ok, JSON.stringify(body)).toBe(false);
    }
    const unknown = parseVariantRequest({ name: 'rename' });
    expect(!unknown.ok && unknown.message).toContain('rename-submit');
  });

  it('isDemoVariant ignores inherited keys', () => {
    expect(isDemoVariant('constructor')).toBe(false);
    expect(isDemoVariant('staff-form')).toBe(true);
  });
});

describe('markVariant', () => {
  const page = '<!doctype html>\n<html lang="en">\n<head></head><body></body></html>';

  it('leaves the page as it is with no variant', () => {
    expect(markVariant(page, null)).toBe(page);
  });

  it('names the variant on the root element only', () => {
    const marked = markVariant(page, 'confirm-dialog');
    expect(marked).toContain('<html data-demo-variant="confirm-dialog" lang="en">');
    expect(marked.match(/data-demo-variant/g)).toHaveLength(1);
  });
});
