import { describe, expect, it } from 'vitest';
import { fingerprintOf, isStableHtmlId } from './fingerprint';

describe('fingerprints', () => {
  it('anchors on hand-written ids only', () => {
    for (const id of ['patient-form', 'first', 'step2-email', 'nav_main'])
      expect(isStableHtmlId(id)).toBe(true);
    for (const id of [
      ':r1:',
      'ember1234',
      'react-select-3-input',
      'radix-12',
      'a1b2c3d4e5',
      'x123',
      '1abc',
      '',
    ]) {
      expect(isStableHtmlId(id)).toBe(false);
    }
  });

  it('joins frame, role, name and path so each part distinguishes', () => {
    const base = fingerprintOf(0, 'btn', 'Save', 'form#patient/div:2/button');
    expect(fingerprintOf(1, 'btn', 'Save', 'form#patient/div:2/button')).not.toBe(base);
    expect(fingerprintOf(0, 'link', 'Save', 'form#patient/div:2/button')).not.toBe(base);
    expect(fingerprintOf(0, 'btn', 'Save ', 'form#patient/div:2/button')).not.toBe(base);
    expect(fingerprintOf(0, 'btn', 'Save', 'form#patient/div:3/button')).not.toBe(base);
  });
});
