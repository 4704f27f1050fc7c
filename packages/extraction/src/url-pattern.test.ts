import { describe, expect, it } from 'vitest';
import { globToRegExp, matchesUrl, urlPatternFor, widenedPattern } from './url-pattern';

describe('url patterns', () => {
  it('learns a glob for the page’s own path, any query, with no guessed id segment', () => {
    expect(urlPatternFor('http://127.0.0.1:4000/catalog/?page=1')).toBe(
      'http://127.0.0.1:4000/catalog/?**',
    );
    // Strict: one URL cannot tell an id from a section name; evidence widens it later.
    expect(urlPatternFor('https://shop.test/products/123/reviews')).toBe(
      'https://shop.test/products/123/reviews?**',
    );
    expect(urlPatternFor('https://shop.test/p/3f9a0c1e-77aa/chair-1234')).toBe(
      'https://shop.test/p/3f9a0c1e-77aa/chair-1234?**',
    );
    const glob = urlPatternFor('http://127.0.0.1:4000/catalog/?page=1');
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/?page=2')).toBe(true);
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/')).toBe(true);
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/#top')).toBe(true);
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/?next=/a/b')).toBe(true);
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/prices/')).toBe(false);
    expect(matchesUrl(glob, 'http://127.0.0.1:4000/catalog/shoes')).toBe(false);
    expect(matchesUrl(glob, 'http://127.0.0.1:4001/catalog/?page=2')).toBe(false);
    // Only the query is open: no prefix of another segment.
    const page1 = urlPatternFor('https://shop.test/list/page/1');
    expect(matchesUrl(page1, 'https://shop.test/list/page/17')).toBe(false);
    expect(matchesUrl(urlPatternFor('https://shop.test/list'), 'https://shop.test/listing')).toBe(
      false,
    );
  });

  it('keeps a section name with a digit literal: /katalog2/list is not /orders3/list', () => {
    const glob = urlPatternFor('http://shop.test/katalog2/list');
    expect(glob).toBe('http://shop.test/katalog2/list?**');
    expect(matchesUrl(glob, 'http://shop.test/orders3/list')).toBe(false);
    expect(matchesUrl(glob, 'http://shop.test/katalog2/list?page=2')).toBe(true);
  });

  it('still matches the patterns stored before, which end in a bare *', () => {
    expect(matchesUrl('http://shop.test/catalog/*', 'http://shop.test/catalog/')).toBe(true);
    expect(matchesUrl('http://shop.test/catalog/*', 'http://shop.test/catalog/?page=3')).toBe(true);
    expect(matchesUrl('http://shop.test/p/*/reviews*', 'http://shop.test/p/9/reviews')).toBe(true);
  });

  it('widens exactly the segments where a page of the same origin and shape differs', () => {
    const shoes = urlPatternFor('https://shop.test/shoes/list?page=1');
    expect(widenedPattern(shoes, 'https://shop.test/hats/list')).toBe(
      'https://shop.test/*/list?**',
    );
    expect(widenedPattern(shoes, 'https://shop.test/shoes/list?page=4')).toBe(shoes);
    const prices = widenedPattern(
      urlPatternFor('https://shop.test/prices/0'),
      'https://shop.test/prices/20',
    );
    expect(prices).toBe('https://shop.test/prices/*?**');
    expect(matchesUrl(prices as string, 'https://shop.test/prices/40?sort=asc')).toBe(true);
    expect(matchesUrl(prices as string, 'https://shop.test/prices/40/rows')).toBe(false);
    // Already a wildcard there: nothing more to widen.
    expect(widenedPattern('https://shop.test/*/list?**', 'https://shop.test/orders/list')).toBe(
      'https://shop.test/*/list?**',
    );
    // An older pattern widens too, and comes back in the current form.
    expect(
      widenedPattern('https://shop.test/products/*/reviews*', 'https://shop.test/items/9/reviews'),
    ).toBe('https://shop.test/*/*/reviews?**');
    // Another shape, another origin, a pattern across segments: no widening.
    expect(widenedPattern(shoes, 'https://shop.test/shoes/list/all')).toBeNull();
    expect(widenedPattern(shoes, 'https://shop.test/list')).toBeNull();
    expect(widenedPattern(shoes, 'http://shop.test/hats/list')).toBeNull();
    expect(widenedPattern(shoes, 'https://other.test/hats/list')).toBeNull();
    expect(widenedPattern('https://shop.test/p/*/**', 'https://shop.test/p/1/x')).toBeNull();
    expect(widenedPattern(shoes, 'not a url')).toBeNull();
    const widened = widenedPattern(shoes, 'https://shop.test/hats/list') as string;
    expect(matchesUrl(widened, 'https://shop.test/socks/list?page=3')).toBe(true);
    expect(matchesUrl(widened, 'https://shop.test/socks/list/all')).toBe(false);
  });

  it('matches * within a segment and ** across segments; other characters literally', () => {
    expect(globToRegExp('https://a.test/*/x').test('https://a.test/1/x')).toBe(true);
    expect(globToRegExp('https://a.test/*/x').test('https://a.test/1/2/x')).toBe(false);
    expect(globToRegExp('https://a.test/**').test('https://a.test/1/2/x?q=1')).toBe(true);
    expect(globToRegExp('https://a.test/p?q').test('https://a.test/pxq')).toBe(false);
  });
});
