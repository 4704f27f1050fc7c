import { describe, expect, it } from 'vitest';
import {
  hostCovers,
  isDomainAllowed,
  isSameSite,
  looksLikeNonPage,
  normaliseUrl,
  siteHost,
} from './urls';

describe('normaliseUrl', () => {
  it.each([
    ['HTTP://Docs.Example.COM:80/a/../b/./c?x=1#section', 'http://docs.example.com/b/c?x=1'],
    ['https://example.com:443', 'https://example.com/'],
    ['https://user:secret@example.com/private', 'https://example.com/private'],
    ['https://example.com/search?', 'https://example.com/search'],
    ['https://example.com/a%7eb/%41', 'https://example.com/a%7eb/%41'],
    ['  https://example.com/padded  ', 'https://example.com/padded'],
    ['https://example.com/?b=2&a=1', 'https://example.com/?b=2&a=1'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseUrl(input)).toBe(expected);
  });

  it('resolves relative links against a base', () => {
    const base = 'https://example.com/docs/guide/start.html';
    expect(normaliseUrl('../api.html#auth', base)).toBe('https://example.com/docs/api.html');
    expect(normaliseUrl('/pricing', base)).toBe('https://example.com/pricing');
    expect(normaliseUrl('//cdn.example.com/x', base)).toBe('https://cdn.example.com/x');
    expect(normaliseUrl('#top', base)).toBe(base);
  });

  it.each([
    'mailto:support@example.com',
    'tel:+15550100',
    'javascript:void(0)',
    'data:text/html,hi',
    'ftp://example.com/file',
    'not a url',
    '',
  ])('rejects %s', (input) => {
    expect(normaliseUrl(input)).toBeNull();
  });
});

describe('same site and allowed domains', () => {
  it('treats www. as the bare host', () => {
    expect(siteHost('WWW.Example.com.')).toBe('example.com');
    expect(hostCovers('www.example.com', 'example.com')).toBe(true);
  });

  it('covers subdomains but not look-alikes', () => {
    const start = 'https://example.com/docs/';
    expect(isSameSite('https://www.example.com/a', start)).toBe(true);
    expect(isSameSite('https://docs.example.com/a', start)).toBe(true);
    expect(isSameSite('http://example.com:8080/a', start)).toBe(true);
    expect(isSameSite('https://notexample.com/a', start)).toBe(false);
    expect(isSameSite('https://example.com.evil.net/a', start)).toBe(false);
    // A subdomain start does not cover its parent.
    expect(isSameSite('https://example.com/', 'https://docs.example.com/')).toBe(false);
  });

  it('allows every domain when the list is empty', () => {
    expect(isDomainAllowed('anything.example')).toBe(true);
    expect(isDomainAllowed('anything.example', [])).toBe(true);
    expect(isDomainAllowed('anything.example', [' '])).toBe(true);
  });

  it('accepts entries written as hosts, URLs or wildcards', () => {
    const allowed = ['tandem.example', 'https://help.other.example/path', '*.wild.example:443'];
    expect(isDomainAllowed('docs.tandem.example', allowed)).toBe(true);
    expect(isDomainAllowed('help.other.example', allowed)).toBe(true);
    expect(isDomainAllowed('other.example', allowed)).toBe(false);
    expect(isDomainAllowed('a.wild.example', allowed)).toBe(true);
    expect(isDomainAllowed('evil.example', allowed)).toBe(false);
  });
});

describe('looksLikeNonPage', () => {
  it.each([
    ['https://example.com/logo.PNG', true],
    ['https://example.com/app.js', true],
    ['https://example.com/download.tar.gz', true],
    ['https://example.com/docs/', false],
    ['https://example.com/guide.html', false],
    ['https://example.com/manual.pdf', false],
    ['https://example.com/readme.md', false],
    ['https://example.com/.well-known', false],
    ['https://example.com/v1.2/intro', false],
  ])('%s → %s', (url, expected) => {
    expect(looksLikeNonPage(url)).toBe(expected);
  });
});
