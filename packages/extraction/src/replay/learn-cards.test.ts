import { describe, expect, it } from 'vitest';
import { page } from './test-pages';
import { applyRecipe } from './apply';
import type { Product } from './fixtures';
import { CARD_SCHEMA, cardsPage, productAt, products } from './fixtures';
import { learnRecipe } from './learn';
import type { ReplayRecipe } from './recipe';
import { spotCheck } from './spot-check';

/** What the model extracts from a card: everything the schema asks for. */
const modelData = (list: readonly Product[]) => list.map((p) => ({ ...p }));

function learned(doc: Document, data: unknown): ReplayRecipe {
  const result = learnRecipe(doc, data, CARD_SCHEMA);
  if (!result.recipe) throw new Error(`no recipe: ${result.reason}`);
  return result.recipe;
}

describe('learnRecipe on product cards', () => {
  const page1 = products(40, 1);

  it('learns generic selectors and replays another page exactly', () => {
    const recipe = learned(page(cardsPage(page1)), modelData(page1));
    // The sidebar's cards share the class: the grid's parent keeps them out.
    expect(recipe.container).toBe('div.grid > article.product-card');
    expect(recipe.fields).toMatchObject({
      sku: { selector: null, source: 'attr', attr: 'data-sku', type: 'string' },
      name: { selector: 'h3.product-name > a', source: 'text' },
      price: { selector: 'span.price', source: 'text', type: 'number' },
      rating: { selector: 'span.rating', source: 'text', type: 'number', nullable: true },
    });
    expect(recipe.itemsSeen).toBe(40);

    const page2 = products(33, 700).map((p, i) => (i === 4 ? { ...p, rating: null } : p));
    const doc2 = page(cardsPage(page2));
    const replay = applyRecipe(doc2, recipe);
    expect(replay.items).toBe(33);
    expect(replay.warnings).toEqual([]);
    expect(replay.data).toEqual(modelData(page2));
    expect(page2.some((p) => p.price >= 1000)).toBe(true);
    expect(spotCheck(doc2, recipe, replay.data)).toBeNull();
  });

  it('tolerates a typo in one item, and replays the page text rather than the typo', () => {
    const data = modelData(page1).map((p, i) =>
      i === 7 ? { ...p, name: p.name.replace('e', 'ee') } : p,
    );
    expect(data[7]?.name).not.toBe(page1[7]?.name);
    const doc = page(cardsPage(page1));
    const recipe = learned(doc, data);
    const replay = applyRecipe(doc, recipe);
    expect((replay.data as Product[])[7]?.name).toBe(page1[7]?.name);
    expect(replay.items).toBe(40);
  });

  it('rejects the recipe when too many fields disagree, counting them', () => {
    const data = modelData(page1).map((p, i) =>
      i % 13 === 0 ? { ...p, name: `${p.name} X`, price: p.price + 1 } : p,
    );
    const result = learnRecipe(page(cardsPage(page1)), data, CARD_SCHEMA);
    expect(result.recipe).toBeNull();
    expect(result.recipe === null && result.reason).toMatch(
      /disagrees with the model in 8 of 160 fields/,
    );
  });

  it('rejects values the page does not have (the model invented them)', () => {
    const data = modelData(page1).map((p, i) => ({ ...p, name: `Imaginary Gadget ${i}` }));
    const result = learnRecipe(page(cardsPage(page1)), data, CARD_SCHEMA);
    expect(result).toMatchObject({ recipe: null });
    expect(result.recipe === null && result.reason).toMatch(/field "name": found in 0 of 40 items/);
  });

  it('rejects data that is entirely invented', () => {
    const data = products(40, 3000).map((p) => ({ ...p, rating: null }));
    const result = learnRecipe(page(cardsPage(page1)), data, CARD_SCHEMA);
    expect(result.recipe === null && result.reason).toMatch(/only 0 of 40 items could be found/);
  });

  it('learns when the model missed some cards, and the replay finds those too', () => {
    const doc = page(cardsPage(page1));
    const missed = modelData(page1).filter((_, i) => i % 8 !== 3);
    const recipe = learned(doc, missed);
    expect(recipe.itemsSeen).toBe(35);
    const replay = applyRecipe(doc, recipe);
    expect(replay.items).toBe(40);
    expect(replay.data).toEqual(modelData(page1));
  });

  it('learns when the model listed a card twice', () => {
    const data = modelData(page1);
    data.splice(10, 0, productAt(10));
    const recipe = learned(page(cardsPage(page1)), data);
    expect(recipe.itemsSeen).toBe(40);
    expect(recipe.container).toBe('div.grid > article.product-card');
  });

  it('learns the container from the rating-less cards as well', () => {
    const list = page1.map((p, i) => (i % 4 === 0 ? { ...p, rating: null } : p));
    const recipe = learned(page(cardsPage(list)), modelData(list));
    expect(recipe.fields.rating).toMatchObject({ selector: 'span.rating', nullable: true });
  });

  // A job board's "Promoted" listings are real items: the model collected them, so a replay
  // with such an item is no advert slipping in; another mark still makes it decline.
  it('keeps the advert marks of the model’s own items, and declines for others only', () => {
    const marked = (html: string, word: string) => html.replaceAll('>Sale<', `>${word}<`);
    const recipe = learned(page(marked(cardsPage(page1), 'Promoted')), modelData(page1));
    expect(recipe.itemMarks).toEqual(['Promoted']);
    const page2 = products(12, 700);
    for (const [word, declines] of [
      ['Promoted', false],
      ['Sponsored', true],
    ] as const) {
      const doc = page(marked(cardsPage(page2), word));
      const problem = spotCheck(doc, recipe, applyRecipe(doc, recipe).data);
      expect(problem === null ? null : /marked as an advert/.test(problem)).toBe(
        declines ? true : null,
      );
    }
  });
});

describe('learnRecipe refuses what it cannot replay', () => {
  it('values of different items under one parent (not a list of cards)', () => {
    const list = products(10, 1);
    const html = `<div>${list.map((p) => `<h3>${p.name}</h3><p>$${p.price}</p>`).join('')}</div>`;
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, price: { type: 'number' } },
      },
    };
    const result = learnRecipe(
      page(html),
      list.map(({ name, price }) => ({ name, price })),
      schema,
    );
    expect(result.recipe === null && result.reason).toMatch(/not inside one container per item/);
  });

  it('nested schemas', () => {
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
        },
      },
    };
    const result = learnRecipe(page(cardsPage(products(3, 1))), [], schema);
    expect(result.recipe === null && result.reason).toMatch(
      /"tags" is an array; replay reads scalar properties only/,
    );
  });

  it('a field that never has a value', () => {
    const list = products(5, 1).map((p) => ({ ...p, rating: null }));
    const result = learnRecipe(page(cardsPage(products(5, 1))), list, CARD_SCHEMA);
    expect(result.recipe === null && result.reason).toMatch(/"rating" has no value in any item/);
  });

  it('data that does not match the schema kind', () => {
    const result = learnRecipe(page(cardsPage(products(3, 1))), { name: 'x' }, CARD_SCHEMA);
    expect(result.recipe === null && result.reason).toMatch(/no items to learn from/);
  });
});
