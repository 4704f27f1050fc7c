import { describe, expect, it } from 'vitest';
import { globToRegExp, matchesUrl, urlPatternFor } from './url-pattern';

describe('url patterns', () => {
  it('learns a glob for pages of the same shape: any query, id segments as *', () => {
    expect(urlPatternFor('http://127.0.0.1:4000/catalog/?page=1')).toBe(
      'http://127.0.0.1:4000/catalog/*',
    );
    expect(urlPatternFor('https://shop.test/products/123/reviews')).toBe(
      'https://shop.test/products/*/reviews*',
    );
    expect(urlPatternFor('https://shop.test/p/3f9a0c1e-77aa/chair-1234')).toBe(
      'https://shop.test/p/*/**',
    );
    const glob = urlPatternFor('http://127.0.0.1:4000/catalog/?page=1');
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/?page=2')).toBe(true);
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/')).toBe(true);
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/prices/')).toBe(false);
    expect(matchesUrl(glob, 'http://127.0.0.1:4001/catalog/?page=2')).toBe(false);
  });

  it('keeps a section name with a digit literal: /katalog2/list is not /orders3/list', () => {
    const glob = urlPatternFor('http://shop.test/katalog2/list');
    expect(glob).toBe('http://shop.test/katalog2/list*');
    expect(matchesUrl(glob, 'http://shop.test/orders3/list')).toBe(false);
    expect(matchesUrl(glob, 'http://shop.test/katalog2/list?page=2')).toBe(true);
  });

  it('matches * within a segment and ** across segments; other characters literally', () => {
    expect(globToRegExp('https://a.test/*/x').test('https://a.test/1/x')).toBe(true);
    expect(globToRegExp('https://a.test/*/x').test('https://a.test/1/2/x')).toBe(false);
    expect(globToRegExp('https://a.test/**').test('https://a.test/1/2/x?q=1')).toBe(true);
    expect(globToRegExp('https://a.test/p?q').test('https://a.test/pxq')).toBe(false);
  });
});
