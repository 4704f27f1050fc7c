// The page reader with several recipes (one per layout a strategy has seen) and with probes
// (another strategy's recipe offered a page its URL pattern does not cover yet).
import { describe, expect, it } from 'vitest';
import { learnPage, readPage } from './page-reader';
import type { ReplayRecipe } from './replay';
import { catalogPageHtml, productListSchema, testProduct } from './testing';

const SCHEMA = productListSchema();
const products = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const p = testProduct(from + i);
    return { name: p.name, price: p.price, rating: p.rating };
  });
/** The same shop with its cards redesigned: another layout, the same products. */
const tiles = (first: number, count: number, page: number) =>
  catalogPageHtml(first, count, page)
    .replace(/<article class="product-card"/g, '<div class="tile"')
    .replace(/<\/article>/g, '</div>')
    .replace(/class="product-name"/g, 'class="title"');

function learn(html: string, data: unknown): ReplayRecipe {
  const learned = learnPage({ html, cssSelector: null, url: null, data, schema: SCHEMA });
  if (!learned.recipe) throw new Error(learned.reason);
  return learned.recipe;
}

const cards = learn(catalogPageHtml(0, 6, 1), products(0, 6));
const tileRecipe = learn(tiles(0, 6, 1), products(0, 6));

describe('reading a page with a strategy of several recipes', () => {
  it('answers with the recipe whose evidence holds, and says which one it was', () => {
    const read = (html: string) =>
      readPage({
        html,
        cssSelector: null,
        url: null,
        replay: { recipes: [tileRecipe, cards], schema: SCHEMA },
      });
    const onCards = read(catalogPageHtml(6, 6, 2));
    expect(onCards.replayed).toMatchObject({ data: products(6, 6), recipe: 1 });
    expect(onCards.markdown).toBeNull();
    const onTiles = read(tiles(12, 6, 3));
    expect(onTiles.replayed).toMatchObject({ data: products(12, 6), recipe: 0 });
    // A page neither fits: each recipe's reason.
    const neither = read(
      '<html><head><title>Catalog</title></head><body><p>Nothing</p></body></html>',
    );
    expect(neither.replayed).toBeNull();
    expect(neither.replayProblem).toMatch(/^recipe 1: .+; recipe 2: .+/);
  });

  it('takes none when two recipes fit but read the page differently', () => {
    // A recipe like `cards` that reads the rating as the price: it fits, and disagrees.
    const price = cards.fields['price'];
    const rating = cards.fields['rating'];
    if (!price || !rating) throw new Error('the recipe reads price and rating');
    const misread: ReplayRecipe = { ...cards, fields: { ...cards.fields, price: rating } };
    const read = readPage({
      html: catalogPageHtml(6, 6, 2),
      cssSelector: null,
      url: null,
      replay: { recipes: [cards, misread], schema: SCHEMA },
    });
    expect(read.replayed).toBeNull();
    expect(read.replayProblem).toBe('recipes 1 and 2 both fit but read the page differently');
    expect(read.markdown).not.toBeNull();
    // The single-recipe request of older callers still reads.
    const single = readPage({
      html: catalogPageHtml(6, 6, 2),
      cssSelector: null,
      url: null,
      replay: { recipe: cards, schema: SCHEMA },
    });
    expect(single.replayed).toMatchObject({ data: products(6, 6), recipe: 0 });
  });

  it('names the probes whose recipe reads exactly what the model read on the page', () => {
    const learned = learnPage({
      html: catalogPageHtml(6, 6, 2),
      cssSelector: null,
      url: null,
      data: products(6, 6),
      schema: SCHEMA,
      probes: [
        { key: 'cards', recipe: cards },
        { key: 'tiles', recipe: tileRecipe },
      ],
    });
    expect(learned.recipe).not.toBeNull();
    expect(learned.agreeing).toEqual(['cards']);
    // The model read one item fewer: no recipe reads what it read.
    const partial = learnPage({
      html: catalogPageHtml(6, 6, 2),
      cssSelector: null,
      url: null,
      data: products(6, 5),
      schema: SCHEMA,
      probes: [{ key: 'cards', recipe: cards }],
    });
    expect(partial.agreeing).toBeUndefined();
  });
});

describe('whether the page leads on past it, told in the same parse', () => {
  const url = 'https://shop.test/c/?page=2&sort=new';
  const move = { before: 'https://shop.test/c/?page=1&sort=new', after: url };
  const pager = `<nav><a href="?page=1&amp;sort=new">Previous</a>
    <a aria-disabled="true" href="?page=3&amp;sort=new">Next</a>
    <a href="?page=3&amp;sort=new" disabled>Also next</a> <a name="anchor">no href</a></nav>
    <!-- <a href="?page=4&amp;sort=new">x</a> --><script>'<a href="?page=5&sort=new">'</script>`;
  const read = (html: string, cssSelector: string | null = null) =>
    readPage({ html, cssSelector, url, replay: null, onward: { url, move } }).onward;

  it('answers only when asked, from the links of the document, never disabled or hidden ones', () => {
    expect(read(`<main id="grid"><a href="/p/1">Lamp</a></main>${pager}`)).toBeNull();
    const more = `<main id="grid"><a href="/p/1">Lamp</a></main><a href="?sort=new&page=9">More</a>`;
    expect(read(more)).toMatch(/a later page of the list/);
    const rel = `<head><link rel="Next" href="/c/p/9"></head><body>${pager}</body>`;
    expect(read(rel)).toMatch(/next page \(https:\/\/shop\.test\/c\/p\/9\)/);
    expect(readPage({ html: rel, cssSelector: null, url, replay: null }).onward).toBeUndefined();
  });

  it('reads the links outside the selector the content is scoped by (the pager beside a grid)', () => {
    const html = `<main id="grid"><a href="/p/1">Lamp</a></main><a href="?page=3&sort=new">More</a>`;
    expect(read(html, '#grid')).toMatch(/page=3/);
  });

  it('reads the links the client listed outside its snapshot too', () => {
    const outside = [{ href: '?page=3&sort=new', rel: [], disabled: false }];
    const asked = { url, move, outside };
    const html = '<main id="grid"><a href="/p/1">Lamp</a></main>';
    expect(readPage({ html, cssSelector: null, url, replay: null, onward: asked }).onward).toMatch(
      /page=3/,
    );
  });
});

describe('learning from items of other pages the page shows again', () => {
  it('learns from those whose every text is in the page, before the page’s own', () => {
    // Page 2 repeats page 1's last product at its top (a promoted item shown again).
    const html = catalogPageHtml(5, 7, 2);
    const fields = products(5, 7);
    const request = {
      html,
      cssSelector: null,
      url: null,
      data: fields.slice(1),
      schema: SCHEMA,
      fromEarlierVisit: true,
      readBack: true,
      // Reads every product on the page: it agrees only with data that has all seven.
      probes: [{ key: 'cards', recipe: cards }],
    };
    expect(learnPage(request).agreeing).toBeUndefined();
    // Product 5 is on the page; products 0–4 are not: the data learned from is all seven.
    const learned = learnPage({ ...request, shownAgain: products(0, 6) });
    expect(learned.agreeing).toEqual(['cards']);
    expect(learned.readBack).toEqual({ ok: true, data: fields, evidence: expect.any(Array) });
  });

  it('declines with nothing to learn from when no item is the page’s own or shown again', () => {
    const learned = learnPage({
      html: catalogPageHtml(20, 6, 3),
      cssSelector: null,
      url: null,
      data: [],
      schema: SCHEMA,
      shownAgain: products(0, 6),
    });
    expect(learned).toMatchObject({ recipe: null, reason: /no items from this page/ });
  });
});
