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
    const glob = urlPatternFor('http://127.0.0.1:4000/catalog/?page=1');
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/?page=2')).toBe(true);
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/')).toBe(true);
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/prices/')).toBe(false);
    expect(matchesUrl(glob, 'http://127.0.0.1:4001/catalog/?page=2')).toBe(false);
  });

  it('matches * within a segment and ** across segments; other characters literally', () => {
    expect(globToRegExp('https://a.test/*/x').test('https://a.test/1/x')).toBe(true);
    expect(globToRegExp('https://a.test/*/x').test('https://a.test/1/2/x')).toBe(false);
    expect(globToRegExp('https://a.test/**').test('https://a.test/1/2/x?q=1')).toBe(true);
    expect(globToRegExp('https://a.test/p?q').test('https://a.test/pxq')).toBe(false);
  });
});
