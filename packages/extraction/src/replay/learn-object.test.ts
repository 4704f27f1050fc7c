import { describe, expect, it } from 'vitest';
import { page } from './test-pages';
import { applyRecipe } from './apply';
import { CARD_SCHEMA, DETAIL_SCHEMA, cardsPage, detailPage, productAt, products } from './fixtures';
import { learnRecipe } from './learn';
import { ReplayRecipeSchema } from './recipe';
import { spotCheck } from './spot-check';

describe('learnRecipe on a product detail page', () => {
  const first = productAt(42);
  const second = productAt(43);

  it('learns unique selectors near each other and replays another product', () => {
    const data = { name: first.name, price: first.price, stock: 12 };
    const result = learnRecipe(page(detailPage(first, 12)), data, DETAIL_SCHEMA);
    if (!result.recipe) throw new Error(result.reason);
    // The name is in the breadcrumb too, and a related card has the same price: the places
    // next to the stock line win.
    expect(result.recipe).toEqual({
      version: 1,
      kind: 'object',
      container: null,
      fields: {
        name: {
          selector: 'h1.product-title',
          source: 'text',
          type: 'string',
          required: true,
          nullable: false,
        },
        price: {
          selector: 'div.buy-box > span.price',
          source: 'text',
          type: 'number',
          required: true,
          nullable: false,
        },
        stock: {
          selector: 'p.stock',
          source: 'text',
          type: 'integer',
          required: true,
          nullable: false,
        },
      },
      itemsSeen: 1,
    });

    const doc = page(detailPage(second, 3));
    const replay = applyRecipe(doc, result.recipe);
    expect(replay).toEqual({
      data: { name: second.name, price: second.price, stock: 3 },
      items: 1,
      warnings: [],
    });
    expect(spotCheck(doc, result.recipe, replay.data)).toBeNull();
  });

  it('fails the spot check on a page showing two products side by side', () => {
    const data = { name: first.name, price: first.price, stock: 12 };
    const result = learnRecipe(page(detailPage(first, 12)), data, DETAIL_SCHEMA);
    if (!result.recipe) throw new Error(result.reason);
    const single = detailPage(second, 3);
    const main = single.slice(single.indexOf('<main'), single.indexOf('</main>') + 7);
    const compare = page(single.replace('</main>', `</main>${main}`));
    const replay = applyRecipe(compare, result.recipe);
    expect(replay.data).toEqual({ name: second.name, price: second.price, stock: 3 });
    expect(spotCheck(compare, result.recipe, replay.data)).toBe(
      '"name": its selector matches 2 elements here, one when learned (a list page?)',
    );
  });

  it('refuses a value that is not on the page', () => {
    const data = { name: first.name, price: first.price, stock: 99 };
    const result = learnRecipe(page(detailPage(first, 12)), data, DETAIL_SCHEMA);
    expect(result).toEqual({
      recipe: null,
      reason: 'field "stock": its value 99 is not on the page',
    });
  });
});

describe('recipe JSON', () => {
  it('round-trips through JSON and ReplayRecipeSchema', () => {
    const list = products(10, 1);
    const result = learnRecipe(page(cardsPage(list)), list, CARD_SCHEMA);
    if (!result.recipe) throw new Error(result.reason);
    const stored = JSON.parse(JSON.stringify(result.recipe)) as unknown;
    expect(ReplayRecipeSchema.parse(stored)).toEqual(result.recipe);
  });

  it('rejects malformed recipes', () => {
    const valid = {
      version: 1,
      kind: 'object',
      container: null,
      itemsSeen: 1,
      fields: { a: { selector: 'h1', source: 'text', type: 'string' } },
    };
    expect(ReplayRecipeSchema.safeParse(valid).success).toBe(true);
    const broken = [
      { ...valid, version: 2 },
      { ...valid, kind: 'list' },
      { ...valid, fields: {} },
      { ...valid, fields: { a: { selector: 'h1', source: 'attr', type: 'string' } } },
      { ...valid, fields: { a: { selector: 'h1', source: 'text', type: 'date' } } },
    ];
    for (const recipe of broken) expect(ReplayRecipeSchema.safeParse(recipe).success).toBe(false);
  });
});
