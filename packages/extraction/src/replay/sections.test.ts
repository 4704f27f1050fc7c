import { describe, expect, it } from 'vitest';
import { page } from './test-pages';
import { applyRecipe } from './apply';
import { CARD_SCHEMA, cardsPage, products } from './fixtures';
import { learnRecipe } from './learn';
import type { ReplayRecipe } from './recipe';
import { readRecipe } from './recipe';
import { listHeading, namedByUrl, sameHeading } from './sections';
import { spotCheck, spotCheckWithEvidence } from './spot-check';

const page1 = products(12, 1);

function learned(html: string, data: unknown = page1): ReplayRecipe {
  const result = learnRecipe(page(html), data, CARD_SCHEMA);
  if (!result.recipe) throw new Error(`no recipe: ${result.reason}`);
  return result.recipe;
}

const check = (html: string, recipe: ReplayRecipe) => {
  const doc = page(html);
  return spotCheck(doc, recipe, applyRecipe(doc, recipe).data);
};

/** The sidebar's cards in a grid of their own, so that the item selector matches them too. */
const stripInGrid = (html: string) =>
  html
    .replace('<h2>Recommended</h2>', '<h2>Recommended</h2><div class="grid">')
    .replace('</aside>', '</div></aside>');
/** The shop's redesign: its own cards in other markup, the sidebar's left in the old one. */
const redesigned = (html: string) =>
  stripInGrid(html.replace(/<div class="grid">/, '<div class="grid new">'));
const newCards = { cardTag: 'div', cardClass: () => 'tile' };

describe('sameHeading', () => {
  it.each([
    ['Products', 'Products'],
    ['Jobs (24)', 'Jobs (3)'],
    ['Catalog, page 1', 'Catalog, page 2'],
    ['Page 2 of 5', 'Page 3 of 5'],
    ['Showing 1–24 of 310 results', 'Showing 25–48 of 310 results'],
    ['ALL PRODUCTS', 'All products'],
    // A search names its query; a rename that keeps a word is taken as the same list.
    ['Results for shoes', 'Results for boots'],
    ['Job listings', 'Job results'],
    [null, null],
    ['2024', null],
  ])('takes %j and %j for one list', (learnedHeading, here) => {
    expect(sameHeading(learnedHeading, here)).toBe(true);
  });

  it.each([
    ['Products', 'Recommended for you'],
    ['Job listings', 'Recommended for you'],
    // A qualifier added or dropped: how pages name a strip beside their list.
    ['Products', 'Related products'],
    ['Recommended products', 'Products'],
    ['Products', null],
    [null, 'Recently viewed'],
  ])('takes %j and %j for two lists', (learnedHeading, here) => {
    expect(sameHeading(learnedHeading, here)).toBe(false);
  });
});

describe('listHeading', () => {
  const items = (doc: Document, selector = 'article') => [...doc.querySelectorAll(selector)];

  it('is the heading before the list, not a card’s own or a sidebar’s', () => {
    const doc = page(`<main><h1>Shop</h1><section><h2>Products <span>(2)</span></h2>
      <aside class="filters"><h3>Price</h3><p>Any</p></aside>
      <div class="grid"><article><h3>Oak Chair</h3></article><article><h3>Pine Desk</h3></article></div>
      </section></main>`);
    expect(listHeading(items(doc), items(doc))).toBe('Products (2)');
    // One item: the cards before it are skipped, not taken for headings.
    const [, second] = items(doc);
    expect(listHeading([second as Element], items(doc))).toBe('Products (2)');
  });

  it('is the strip’s heading for cards in a strip, and null for a list under none', () => {
    const doc = page(`<main><div class="grid"><article><h3>Oak Chair</h3></article></div>
      <aside><h2>Recommended for you</h2><div><article><h3>Gift Card</h3></article></div></aside></main>`);
    const [own, strip] = items(doc);
    expect(listHeading([own as Element], items(doc))).toBeNull();
    expect(listHeading([strip as Element], items(doc))).toBe('Recommended for you');
  });
});

describe('the heading a list sat under', () => {
  it('is kept in the recipe, survives a save and a load, and replays on a later page', () => {
    const recipe = learned(cardsPage(page1));
    expect(recipe.heading).toBe('All products');
    const stored = readRecipe(JSON.parse(JSON.stringify(recipe)));
    expect(stored.recipe?.heading).toBe('All products');
    expect(readRecipe({ ...recipe, heading: null }).recipe?.heading).toBeNull();
    expect(readRecipe({ ...recipe, heading: '' }).recipe).toBeNull();
    const later = page(cardsPage(products(12, 400)));
    expect(spotCheckWithEvidence(later, recipe, applyRecipe(later, recipe).data)).toEqual({
      problem: null,
      evidence: expect.arrayContaining(["items under a heading like 'All products'"]),
    });
  });

  it('declines cards in the old markup that sit under another heading', () => {
    const recipe = learned(cardsPage(page1));
    const html = redesigned(cardsPage(products(12, 400), newCards));
    const doc = page(html);
    // The item selector matches the sidebar's three cards, and no heading divides them.
    expect(applyRecipe(doc, recipe).items).toBe(3);
    expect(check(html, recipe)).toMatch(
      /^the items sit under "Recommended" here, and under "All products" on the learning page/,
    );
    // A page that lists nothing now, beside the same strip.
    expect(check(redesigned(cardsPage([])), recipe)).toMatch(/^the items sit under "Recommended"/);
  });

  it('does not judge a recipe stored before the heading was kept', () => {
    const { heading, ...old } = learned(cardsPage(page1));
    expect(heading).toBe('All products');
    expect(readRecipe(old).recipe).not.toBeNull();
    expect(check(redesigned(cardsPage(products(12, 400), newCards)), old)).toBeNull();
  });
});

describe('a list headed by what its URL names', () => {
  const headed = (heading: string, html: string) =>
    html.replace('<h1>All products</h1>', `<h1>${heading}</h1>`);
  const shoes = headed('Shoes', cardsPage(page1));
  const at = (url: string, html: string, recipe: ReplayRecipe) => {
    const doc = page(html);
    return spotCheck(doc, recipe, applyRecipe(doc, recipe).data, { url });
  };

  it('reads the heading’s words in the URL’s path or query, give or take a plural s', () => {
    expect(namedByUrl('Boots', 'https://shop.test/c/boots')).toBe(true);
    expect(namedByUrl("Men's Boot", 'https://shop.test/c/mens-boots?page=2')).toBe(true);
    expect(namedByUrl('Running shoes', 'https://shop.test/list?category=running%20shoes')).toBe(
      true,
    );
    expect(namedByUrl('Boots', 'https://shop.test/c/shoes')).toBe(false);
    expect(namedByUrl('Recommended boots', 'https://shop.test/c/boots')).toBe(false);
    expect(namedByUrl(null, 'https://shop.test/c/boots')).toBe(false);
    expect(namedByUrl('Boots', null)).toBe(false);
  });

  it('replays the same list for another value of the URL, and nothing else', () => {
    const result = learnRecipe(page(shoes), page1, CARD_SCHEMA, {
      url: 'https://shop.test/c/shoes',
    });
    if (!result.recipe) throw new Error(result.reason);
    expect(result.recipe).toMatchObject({ heading: 'Shoes', headingInUrl: true });
    const boots = headed('Boots', cardsPage(products(12, 500)));
    expect(at('https://shop.test/c/boots', boots, result.recipe)).toBeNull();
    // Headed by a value the URL does not carry: another list.
    expect(at('https://shop.test/c/sandals', boots, result.recipe)).toMatch(/sit under "Boots"/);
    // The strip beside a redesigned list: headed by words no URL of the list carries.
    const strip = redesigned(headed('Boots', cardsPage(products(12, 500), newCards)));
    expect(at('https://shop.test/c/boots', strip, result.recipe)).toMatch(/Recommended/);
  });

  it('keeps the heading check when the learning page’s URL did not name its heading', () => {
    const result = learnRecipe(page(shoes), page1, CARD_SCHEMA, { url: 'https://shop.test/list' });
    if (!result.recipe) throw new Error(result.reason);
    expect(result.recipe.headingInUrl).toBeUndefined();
    const boots = headed('Boots', cardsPage(products(12, 500)));
    expect(at('https://shop.test/c/boots', boots, result.recipe)).toMatch(/sit under "Boots"/);
  });
});
