import { describe, expect, it } from 'vitest';
import { parse } from './dom';
import { classifyPage, declaredArticleBody, pageKind, pageSignals } from './page-kind';

const page = (head: string, body = '<p>Some text of the page.</p>'): string =>
  `<!doctype html><html><head><title>T</title>${head}</head><body>${body}</body></html>`;

const ld = (data: unknown): string =>
  `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

const og = (type: string): string => `<meta property="og:type" content="${type}">`;

const signalsOf = (html: string) => pageSignals(parse(html));
const typeOf = (html: string, url = 'https://example.com/page'): string =>
  classifyPage(signalsOf(html), url);

describe('page signals', () => {
  it('counts declared types in JSON-LD arrays and microdata, og:type and shown prices', () => {
    const html = page(
      `${ld({ '@type': ['Product', 'Thing'], offers: { '@type': 'Offer' } })}${og('Product')}
       <script>var price = "$10.00 $20.00";</script>`,
      `<div itemscope itemtype="https://schema.org/Review"><p>$19.99 or 12,50 € or GBP 4</p></div>`,
    );
    const s = signalsOf(html);
    expect(s.types.get('Product')).toBe(1);
    expect(s.types.get('Thing')).toBe(1);
    expect(s.types.get('Offer')).toBe(1);
    expect(s.types.get('Review')).toBe(1);
    expect(s.ogType).toBe('product');
    // The script's prices are not shown on the page.
    expect(s.prices).toBe(3);
  });

  it('counts <article> and <time> elements', () => {
    const s = signalsOf(page('', '<article><time>1</time></article><article></article>'));
    expect(s.articles).toBe(2);
    expect(s.times).toBe(1);
  });
});

describe('classifyPage', () => {
  it('knows a forum thread by its address or its declaration', () => {
    expect(typeOf(page(''), 'https://forum.example/threads/a-question.12/')).toBe('forum');
    expect(typeOf(page(ld({ '@type': 'QAPage' })))).toBe('forum');
    // A forum declaration beside others in an array counts too.
    expect(typeOf(page(ld({ '@type': ['WebPage', 'DiscussionForumPosting'] })))).toBe('forum');
  });

  it('knows one product by its declaration, its og:type or its address', () => {
    expect(typeOf(page(ld({ '@type': 'Product', name: 'Mug' })))).toBe('product');
    // A product group's variants are declared as products: still one product.
    const variants = Array.from({ length: 30 }, () => ({ '@type': 'Product' }));
    expect(typeOf(page(ld({ '@type': 'ProductGroup', hasVariant: variants })))).toBe('product');
    expect(typeOf(page(og('product.item')))).toBe('product');
    expect(typeOf(page(og('og:product')))).toBe('product');
    expect(typeOf(page(''), 'https://shop.example/products/blue-mug')).toBe('product');
  });

  it('knows a collection by a declared list of products, og:type, its address or its prices', () => {
    const listed = Array.from({ length: 6 }, () => ({ '@type': 'Product' }));
    expect(typeOf(page(ld({ '@type': 'ItemList', itemListElement: listed })))).toBe('collection');
    const many = Array.from({ length: 25 }, () => ({ '@type': 'Product' }));
    expect(typeOf(page(ld(many)))).toBe('collection');
    expect(typeOf(page(og('product.group')))).toBe('collection');
    expect(typeOf(page(''), 'https://shop.example/collections/mugs')).toBe('collection');
    const prices = Array.from({ length: 20 }, (_, i) => `<li>Mug ${i} $${i}.99</li>`).join('');
    expect(typeOf(page('', `<ul>${prices}</ul>`))).toBe('collection');
  });

  it('keeps a declared article an article, though it names products', () => {
    const review = page(ld([{ '@type': 'NewsArticle' }, { '@type': 'Product' }]));
    expect(typeOf(review)).toBe('article');
    expect(typeOf(page(ld({ '@type': 'BlogPosting' })), 'https://blog.example/p/a-post')).toBe(
      'article',
    );
  });

  it('knows documentation by its address or a TechArticle declaration', () => {
    expect(typeOf(page(''), 'https://docs.example.org/en/latest/intro.html')).toBe('documentation');
    expect(typeOf(page(''), 'https://example.org/docs/install')).toBe('documentation');
    expect(typeOf(page(ld({ '@type': 'TechArticle' })))).toBe('documentation');
  });

  it('knows a listing by a declared list, its address or its repeated stories', () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ '@type': 'ListItem', position: i }));
    expect(typeOf(page(ld({ '@type': 'ItemList', itemListElement: items })))).toBe('listing');
    expect(typeOf(page(''), 'https://news.example/sections/science/')).toBe('listing');
    const stories = Array.from({ length: 5 }, () => '<article><h2>Story</h2></article>').join('');
    expect(typeOf(page('', stories))).toBe('listing');
  });

  it('reads a service page (a home page or a /services/ address) as neither', () => {
    expect(typeOf(page(''), 'https://agency.example/')).toBe('other');
    expect(typeOf(page(''), 'https://agency.example/services/seo/')).toBe('other');
  });

  it('reads anything else as an article', () => {
    expect(typeOf(page(''), 'https://example.com/how-to-plant-tomatoes')).toBe('article');
  });
});

describe('pageKind (the profile extraction uses)', () => {
  it('is article only for a declared article, and never for a product page', () => {
    expect(pageKind(signalsOf(page(ld({ '@type': 'Article' }))))).toBe('article');
    expect(pageKind(signalsOf(page(og('article'))))).toBe('other');
    expect(pageKind(signalsOf(page(ld({ '@type': 'Product' }))))).toBe('other');
    expect(pageKind(signalsOf(page('')), 'https://x.example/t/topic/1')).toBe('forum');
  });
});

describe('declaredArticleBody', () => {
  it('finds articleBody in a @graph, and nothing in malformed JSON-LD', () => {
    const graph = ld({ '@graph': [{ '@type': 'WebPage' }, { articleBody: 'Line one.\nTwo.' }] });
    expect(declaredArticleBody(signalsOf(page(graph)))).toBe('Line one.\nTwo.');
    const broken = '<script type="application/ld+json">{"articleBody": "x",}</script>';
    expect(declaredArticleBody(signalsOf(page(broken)))).toBeNull();
    expect(declaredArticleBody(signalsOf(page(ld({ '@type': 'Article' }))))).toBeNull();
  });
});
