// The settings a user types (the server URL and its one message), and the consent to learn
// from pages: which sites are on the list, and that a page is allowed only when its exact site
// is listed (the list starts empty).
import { describe, expect, it } from 'vitest';
import { memoryStore } from './memory-store';
import {
  LEARN_SITES_KEY,
  loadLearnSites,
  mayLearnFrom,
  setSiteLearning,
  Settings,
  siteOfUrl,
} from './settings';

describe('Settings: the server URL', () => {
  const issues = (serverUrl: string) =>
    Settings.safeParse({ serverUrl, apiKey: 'tdm_x' }).error?.issues.map((i) => i.message) ?? [];

  it('takes a whole http(s) address', () => {
    for (const url of [
      'http://127.0.0.1:3000',
      'https://tandem.example.com/',
      ' http://localhost:3000 ',
    ])
      expect(issues(url), url).toEqual([]);
  });

  it('says once, in one sentence, that a URL without http(s):// needs it', () => {
    for (const url of ['localhost:3000', 'example.com', 'ftp://example.com', 'http://', ''])
      expect(issues(url), url).toEqual([
        'Server URL must start with http:// or https://, as in http://127.0.0.1:3000.',
      ]);
  });
});

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
