// The consent to learn from pages: which sites are on the list, how a typed site is read, and
// that a page is allowed only when its exact site is listed (the list starts empty).
import { describe, expect, it } from 'vitest';
import { memoryStore } from './memory-store';
import {
  LEARN_SITES_KEY,
  loadLearnSites,
  mayLearnFrom,
  parseSite,
  parseSites,
  setSiteLearning,
  siteOfUrl,
} from './settings';

describe('siteOfUrl', () => {
  it('is the host of an http(s) page, with its port when not the default', () => {
    expect(siteOfUrl('https://App.Example.com/a?b#c')).toBe('app.example.com');
    expect(siteOfUrl('http://127.0.0.1:8080/emr/')).toBe('127.0.0.1:8080');
    expect(siteOfUrl('https://example.com:443/')).toBe('example.com');
  });

  it('is null for pages that are not websites, and for nothing', () => {
    for (const url of ['chrome://extensions/', 'file:///tmp/a.html', 'about:blank', 'nope', ''])
      expect(siteOfUrl(url)).toBeNull();
    expect(siteOfUrl(undefined)).toBeNull();
  });
});

describe('parseSite', () => {
  it('reads a host, a host with a port, or any URL of the site', () => {
    expect(parseSite('  Docs.Example.com ')).toBe('docs.example.com');
    expect(parseSite('127.0.0.1:3000')).toBe('127.0.0.1:3000');
    expect(parseSite('https://app.example.com/patients?id=1')).toBe('app.example.com');
    expect(parseSite('app.example.com/patients')).toBe('app.example.com');
  });

  it('refuses what is not a site', () => {
    for (const input of ['', '   ', 'not a site', 'chrome://settings', 'http://', '-bad-.com'])
      expect(parseSite(input), input).toBeNull();
  });
});

describe('the list of sites', () => {
  it('is empty by default: no page may be learned from', async () => {
    const storage = memoryStore();
    expect(await loadLearnSites(storage)).toEqual([]);
    expect(await mayLearnFrom(storage, 'https://app.example.com/')).toBe(false);
  });

  it('adds and removes sites, keeping them sorted and unique', async () => {
    const storage = memoryStore();
    await setSiteLearning(storage, 'b.example', true);
    await setSiteLearning(storage, 'a.example', true);
    expect(await setSiteLearning(storage, 'b.example', true)).toEqual(['a.example', 'b.example']);
    expect(storage.data.get(LEARN_SITES_KEY)).toEqual(['a.example', 'b.example']);
    expect(await setSiteLearning(storage, 'a.example', false)).toEqual(['b.example']);
    expect(await setSiteLearning(storage, 'never.example', false)).toEqual(['b.example']);
  });

  it('allows a page only when its exact site is listed: not a subdomain, another port or scheme', async () => {
    const storage = memoryStore();
    await setSiteLearning(storage, 'example.com', true);
    await setSiteLearning(storage, '127.0.0.1:8080', true);
    expect(await mayLearnFrom(storage, 'https://example.com/any/page')).toBe(true);
    expect(await mayLearnFrom(storage, 'http://example.com/')).toBe(true);
    expect(await mayLearnFrom(storage, 'http://127.0.0.1:8080/emr/')).toBe(true);
    expect(await mayLearnFrom(storage, 'https://docs.example.com/')).toBe(false);
    expect(await mayLearnFrom(storage, 'https://example.com.evil.test/')).toBe(false);
    expect(await mayLearnFrom(storage, 'http://127.0.0.1:9090/emr/')).toBe(false);
    expect(await mayLearnFrom(storage, 'chrome://example.com/')).toBe(false);
  });

  it('ignores a stored value it cannot read instead of allowing anything', async () => {
    const storage = memoryStore();
    await storage.set({ [LEARN_SITES_KEY]: 'example.com' });
    expect(await loadLearnSites(storage)).toEqual([]);
    await storage.set({ [LEARN_SITES_KEY]: ['example.com', 42, 'not a site', 'example.com'] });
    expect(await loadLearnSites(storage)).toEqual(['example.com']);
  });
});

describe('parseSites', () => {
  it('reads a typed list of sites, each once, or names the word that is not one', () => {
    expect(parseSites('partner.example, http://localhost:4000/x  partner.example')).toEqual({
      sites: ['partner.example', 'localhost:4000'],
    });
    expect(parseSites('')).toEqual({ sites: [] });
    expect(parseSites('ok.example bad_host!')).toEqual({ invalid: 'bad_host!' });
  });
});
