import { describe, expect, it } from 'vitest';
import { hostOf } from './url-host';

describe('hostOf', () => {
  it('reads hosts with their port, null for what is not a URL', () => {
    expect(hostOf('http://127.0.0.1:4000/x')).toBe('127.0.0.1:4000');
    expect(hostOf('https://emr.example/patients?q=1')).toBe('emr.example');
    expect(hostOf('not a url')).toBeNull();
    expect(hostOf('mailto:a@b.example')).toBeNull();
    expect(hostOf(null)).toBeNull();
    expect(hostOf(undefined)).toBeNull();
  });
});
