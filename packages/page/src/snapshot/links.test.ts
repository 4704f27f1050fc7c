// The page's links as the next-page check reads them (pageLinks, snapshotLinks): rel="next"
// first, greyed pagers marked, the scope's own links left out, and the wire's caps held.
import { PAGE_LINK_LIMITS, PageSnapshot } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../server';
import { pageLinks } from './links';
import { snapshotLinks } from './snapshot';

const CATALOG = `<!doctype html><html><head><title>Catalog</title>
<link rel="stylesheet" href="/shop.css"></head><body>
<nav><a href="/">Home</a> <a href="/catalog/">Catalog</a></nav>
<main><section id="products"><h2>Products</h2>
  <article><a href="/p/1">Lamp</a> $12</article>
  <article><a href="/p/2">Chair</a> $40</article>
</section>
<p class="pager"><a href="?page=1" aria-disabled="true">Previous</a>
  <a href="?page=3" rel="Next nofollow">More products</a></p></main>
</body></html>`;

describe('the page’s links', () => {
  it('lists every link with an href, rel="next" first, a greyed one marked', () => {
    const links = pageLinks(parseHtml(CATALOG));
    expect(links[0]).toEqual({ href: '?page=3', rel: ['next', 'nofollow'], disabled: false });
    expect(links.map((l) => l.href)).toEqual([
      '?page=3',
      '/shop.css',
      '/',
      '/catalog/',
      '/p/1',
      '/p/2',
      '?page=1',
    ]);
    expect(links.find((l) => l.href === '?page=1')?.disabled).toBe(true);
  });

  it('leaves out the links of the part a scoped snapshot already holds', () => {
    const links = snapshotLinks(parseHtml(CATALOG), '#products');
    expect(links.map((l) => l.href)).not.toContain('/p/1');
    expect(links.map((l) => l.href)).toContain('?page=3');
    expect(snapshotLinks(parseHtml(CATALOG), undefined)).toHaveLength(7);
    expect(() => snapshotLinks(parseHtml(CATALOG), '#gone')).toThrow(/matches no element/);
  });

  it('holds the wire’s caps on a hostile page, keeping a rel="next" link past them', () => {
    const many = Array.from({ length: 3_000 }, (_, k) => `<a href="/x/${k}">${k}</a>`).join('');
    const long = `<a href="/${'a'.repeat(PAGE_LINK_LIMITS.hrefLength)}">long</a>`;
    const rels = Array.from({ length: 40 }, (_, k) => `r${k}`).join(' ');
    const doc = parseHtml(
      `<body>${long}${many}<a href="/odd" rel="${'z'.repeat(80)} ${rels}">odd</a><a href="?page=2" rel="next">Next</a></body>`,
    );
    const links = pageLinks(doc);
    expect(links).toHaveLength(PAGE_LINK_LIMITS.count);
    expect(links[0]?.href).toBe('?page=2');
    expect(links.some((l) => l.href.length > PAGE_LINK_LIMITS.hrefLength)).toBe(false);
    // What the extension sends passes the server's schema whatever the page holds.
    const odd = pageLinks(doc, { max: 5_000 }).find((l) => l.href === '/odd');
    expect(odd?.rel).toHaveLength(16);
    expect(PageSnapshot.safeParse({ mode: 'content', text: '', links }).success).toBe(true);
    expect(PageSnapshot.safeParse({ mode: 'content', text: '', links: [odd] }).success).toBe(true);
  });
});
