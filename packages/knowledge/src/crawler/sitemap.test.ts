import { describe, expect, it } from 'vitest';
import { collectSitemapUrls, defaultSitemapLocations, parseSitemap } from './sitemap';

const urlset = (...locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${locs.map((loc) => `  <url><loc>${loc}</loc><lastmod>2026-05-14</lastmod></url>`).join('\n')}
</urlset>`;

const index = (...locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${locs.map((loc) => `  <sitemap><loc>${loc}</loc></sitemap>`).join('\n')}
</sitemapindex>`;

describe('parseSitemap', () => {
  it('reads the pages of a urlset, one or many', () => {
    expect(parseSitemap(urlset('https://a.example/1'))).toEqual({
      urls: ['https://a.example/1'],
      sitemaps: [],
    });
    expect(parseSitemap(urlset('https://a.example/1', 'https://a.example/2')).urls).toHaveLength(2);
  });

  it('reads the children of a sitemap index', () => {
    expect(parseSitemap(index('https://a.example/docs.xml')).sitemaps).toEqual([
      'https://a.example/docs.xml',
    ]);
  });

  it('unescapes XML entities and ignores namespace prefixes and blank locs', () => {
    const xml = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sm:url><sm:loc> https://a.example/search?q=1&amp;page=2 </sm:loc></sm:url>
      <sm:url><sm:loc></sm:loc></sm:url>
    </sm:urlset>`;
    expect(parseSitemap(xml).urls).toEqual(['https://a.example/search?q=1&page=2']);
  });

  it('yields nothing for HTML, garbage or an empty file', () => {
    for (const text of ['<!doctype html><html><body>404</body></html>', '<<<', '']) {
      expect(parseSitemap(text)).toEqual({ urls: [], sitemaps: [] });
    }
  });
});

describe('defaultSitemapLocations', () => {
  it('tries the root and the start URL directory', () => {
    expect(defaultSitemapLocations('https://a.example/docs/intro.html')).toEqual([
      'https://a.example/sitemap.xml',
      'https://a.example/docs/sitemap.xml',
    ]);
    expect(defaultSitemapLocations('https://a.example/')).toEqual([
      'https://a.example/sitemap.xml',
    ]);
  });
});

describe('collectSitemapUrls', () => {
  const files = new Map<string, string>([
    ['https://a.example/sitemap.xml', index('https://a.example/docs.xml', '/blog.xml')],
    [
      'https://a.example/docs.xml',
      urlset('https://a.example/docs/1#top', 'https://a.example/docs/2'),
    ],
    [
      'https://a.example/blog.xml',
      index('https://a.example/sitemap.xml', 'https://a.example/posts.xml'),
    ],
    ['https://a.example/posts.xml', urlset('https://a.example/docs/2', 'https://a.example/post/1')],
  ]);
  const read = async (url: string) => files.get(url) ?? null;

  it('follows nested indexes once each, deduplicating and normalising page URLs', async () => {
    const result = await collectSitemapUrls(['https://a.example/sitemap.xml'], read);
    expect(result.urls).toEqual([
      'https://a.example/docs/1',
      'https://a.example/docs/2',
      'https://a.example/post/1',
    ]);
    expect(result.filesRead).toBe(4);
  });

  it('stops at the file cap', async () => {
    const result = await collectSitemapUrls(['https://a.example/sitemap.xml'], read, 2);
    expect(result.filesRead).toBe(2);
    expect(result.urls).toEqual(['https://a.example/docs/1', 'https://a.example/docs/2']);
  });

  it('skips files that cannot be read', async () => {
    const result = await collectSitemapUrls(
      ['https://a.example/missing.xml', 'https://a.example/docs.xml'],
      read,
    );
    expect(result.urls).toHaveLength(2);
  });
});
