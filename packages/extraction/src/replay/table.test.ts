import { describe, expect, it } from 'vitest';
import { page } from './test-pages';
import { applyRecipe } from './apply';
import { TABLE_SCHEMA, products, tableData, tablePage } from './fixtures';
import { learnRecipe } from './learn';
import type { ReplayRecipe } from './recipe';
import { spotCheck } from './spot-check';

function learned(doc: Document, data: unknown): ReplayRecipe {
  const result = learnRecipe(doc, data, TABLE_SCHEMA);
  if (!result.recipe) throw new Error(`no recipe: ${result.reason}`);
  return result.recipe;
}

describe('learnRecipe on a table', () => {
  it('learns rows and columns from 200 rows and replays 500 other rows', () => {
    const first = products(200, 1);
    const recipe = learned(page(tablePage(first)), tableData(first));
    // "tr" alone would also match the header row; the first cell needs no position.
    expect(recipe.container).toBe('tbody > tr');
    expect(recipe.fields).toMatchObject({
      sku: { selector: 'td', source: 'text', type: 'string' },
      product: { selector: 'td:nth-child(2)', source: 'text', type: 'string' },
      price: { selector: 'td:nth-child(3)', source: 'text', type: 'number' },
    });

    const other = products(500, 10_000);
    const doc = page(tablePage(other));
    const replay = applyRecipe(doc, recipe);
    expect(replay.items).toBe(500);
    expect(replay.data).toEqual(tableData(other));
    expect(spotCheck(doc, recipe, replay.data)).toBeNull();
  });

  it('reads integers and yes/no booleans', () => {
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          item: { type: 'string' },
          quantity: { type: 'integer' },
          available: { type: 'boolean' },
        },
      },
    };
    const rows = (n: number, from: number) =>
      Array.from({ length: n }, (_, k) => ({
        item: `Part ${from + k}`,
        quantity: (from + k) % 17,
        available: (from + k) % 3 !== 0,
      }));
    const html = (list: ReturnType<typeof rows>) =>
      `<table><tbody>${list.map((r) => `<tr><th>${r.item}</th><td>${r.quantity} items</td><td>${r.available ? 'Yes' : 'No'}</td></tr>`).join('')}</tbody></table>`;
    const result = learnRecipe(page(html(rows(30, 1))), rows(30, 1), schema);
    if (!result.recipe) throw new Error(result.reason);
    expect(result.recipe.fields).toMatchObject({
      quantity: { selector: 'td', type: 'integer' },
      available: { selector: 'td:nth-child(3)', type: 'boolean' },
    });
    const other = rows(25, 100);
    expect(applyRecipe(page(html(other)), result.recipe).data).toEqual(other);
  });

  it('learns and applies on 500 rows quickly (measured, not asserted)', () => {
    const list = products(500, 1);
    const doc = page(tablePage(list));
    const t0 = performance.now();
    const result = learnRecipe(doc, tableData(list), TABLE_SCHEMA);
    const t1 = performance.now();
    if (!result.recipe) throw new Error(result.reason);
    const other = page(tablePage(products(500, 20_000)));
    const t2 = performance.now();
    const replay = applyRecipe(other, result.recipe);
    const t3 = performance.now();
    const spot = spotCheck(other, result.recipe, replay.data);
    const t4 = performance.now();
    console.info(
      `500-row table: learn ${(t1 - t0).toFixed(0)} ms, apply ${(t3 - t2).toFixed(0)} ms, spot check ${(t4 - t3).toFixed(0)} ms`,
    );
    expect(replay.items).toBe(500);
    expect(spot).toBeNull();
  });
});
