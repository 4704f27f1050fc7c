import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodedForms, embeddedUrls, urlsIn } from './decoded-forms';

const b64 = (text: string) => btoa(text);
const b64url = (text: string) =>
  btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('decoded forms of outbound text', () => {
  it('reads %-escapes, base64, HTML entities and full-width forms', () => {
    expect(decodedForms('a%20b%2Fc')).toContain('a b/c');
    expect(decodedForms(`x=${b64('512-44-9031')}`)).toContain('512-44-9031');
    expect(decodedForms('&#x35;&#49;2')).toContain('512');
    expect(decodedForms('５１２－４４')).toContain('512-44');
    // base64 inside %-escapes inside base64.
    const nested = b64(encodeURIComponent(`d=${b64('secret 512449031')}`));
    expect(decodedForms(nested)).toContain('secret 512449031');
  });

  it('keeps malformed escapes and random bytes as they are', () => {
    expect(decodedForms('100%zz')).toEqual(['100%zz']);
    expect(decodedForms('abcdefgh').some((f) => f.includes('\uFFFD'))).toBe(false);
  });

  it('is bounded on hostile input', () => {
    const deep = Array.from({ length: 10 }).reduce<string>((t) => b64(t), 'hidden 512449031');
    const forms = decodedForms(deep);
    expect(forms.length).toBeLessThanOrEqual(64);
    expect(decodedForms('%41'.repeat(100_000)).length).toBeLessThanOrEqual(64);
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const forms = decodedForms(text);
        expect(forms[0]).toBe(text);
        expect(forms.length).toBeLessThanOrEqual(64);
        urlsIn(text);
      }),
      { seed: 28, numRuns: 300 },
    );
  });
});

describe('addresses carried by a URL', () => {
  const evil = 'https://login.example.net/login';

  it('finds a redirector target, encoded any way', () => {
    for (const carried of [
      `https://shop.example.com/r?u=${encodeURIComponent(evil)}`,
      `https://shop.example.com/r?u=${encodeURIComponent(encodeURIComponent(evil))}`,
      `https://shop.example.com/r?u=${b64url(evil)}`,
      `https://shop.example.com/go#next=${evil}`,
      `https://shop.example.com/out/${encodeURIComponent(evil)}`,
      `https://shop.example.com/r?u=//login.example.net/login`,
    ]) {
      expect(
        embeddedUrls(carried).map((u) => new URL(u).host),
        carried,
      ).toContain('login.example.net');
    }
  });

  it('finds nothing in an ordinary URL', () => {
    expect(embeddedUrls('https://shop.example.com/search?q=oak+chair&page=2#results')).toEqual([]);
    expect(embeddedUrls('not a url')).toEqual([]);
  });

  it('finds the addresses written in prose', () => {
    expect(urlsIn('Confirm at https://c.example.net/a?d=512-44-9031 today.')).toEqual([
      'https://c.example.net/a?d=512-44-9031',
    ]);
  });
});
