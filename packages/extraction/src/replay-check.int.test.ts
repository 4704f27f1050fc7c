// The sampled cross-check of replays end to end: the real service, store (libSQL in memory) and
// page reader, with the scripted model reading only its prompt. A recipe's first replay is read
// again by the model on a slice of the page; the next ones, until the Nth, cost nothing; a page
// whose selectors still fit but now mean something else is caught by the check, the recipe is
// retired and the model's data returned.
import { createLibsqlStore, type Store } from '@tandem/store';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkSlice, compareCheck } from './replay-check';
import { ExtractionService } from './service';
import {
  catalogPageHtml,
  formatPrice,
  priceTableHtml,
  productListSchema,
  scriptedExtractionLlm,
  testProduct,
  type ScriptedExtractionLlm,
} from './testing';

const PRODUCTS = productListSchema();
const COUNT = 10;

const products = (page: number) =>
  Array.from({ length: COUNT }, (_, i) => {
    const p = testProduct((page - 1) * COUNT + i);
    return { name: p.name, price: p.price, rating: p.rating };
  });

/**
 * The shop now shows the shipping cost under the old `.price` class and the price in a new
 * element: every selector still fits and reads a number, so only the model tells them apart.
 */
const shippingPage = (page: number) =>
  catalogPageHtml((page - 1) * COUNT, COUNT, page).replace(
    /<span class="price">([^<]*)<\/span>/g,
    `<span class="now">$1</span> <span class="price">${formatPrice(4.99)} shipping</span>`,
  );

let store: Store;
let llm: ScriptedExtractionLlm;
let service: ExtractionService;

beforeEach(async () => {
  store = await createLibsqlStore({ url: ':memory:' });
  llm = scriptedExtractionLlm();
  service = new ExtractionService({ llm, store, sleep: async () => {}, replayCheckEvery: 3 });
});

const run = (page: number, html = catalogPageHtml((page - 1) * COUNT, COUNT, page)) =>
  service.run({
    tenantId: 't1',
    taskId: 'task-1',
    context: { tenantId: 't1' },
    url: `http://shop.test/catalog/?page=${page}`,
    html,
    request: { query: 'products', outputSchema: PRODUCTS },
    applySelector: true,
  });

const actionTypes = () => llm.calls.map((call) => call.actionType);

describe('the sampled cross-check of replays', () => {
  it('checks the first replay with the model, then replays until the Nth with no model call', async () => {
    const learned = await run(1);
    expect(learned.result.method).toBe('model');
    expect(learned.result.replay).toBeUndefined();

    const first = await run(2);
    expect(first.result).toMatchObject({ method: 'replay', data: products(2) });
    expect(actionTypes()).toEqual(['EXTRACTION', 'EXTRACTION_CHECK']);
    expect(first.result.replay?.checked).toBe(true);
    expect(first.result.replay?.evidence).toEqual(
      expect.arrayContaining([
        `${COUNT} items, one per container`,
        '3 items re-read',
        "title shares 'catalog'",
        'the model agreed on the first 3 items',
      ]),
    );
    expect(first.result.contentStats.modelCalls).toBe(1);
    expect(first.result.contentStats.markdownChars).toBeGreaterThan(0);
    expect(first.summary).toMatch(/Extracted 10 items, replayed \(checked/);
    // The check reads a few items, not the page: far fewer tokens than learning took.
    expect(first.result.contentStats.inputTokens).toBeLessThan(
      learned.result.contentStats.inputTokens,
    );

    for (const page of [3, 4]) {
      const later = await run(page);
      expect(later.result).toMatchObject({ method: 'replay', data: products(page) });
      expect(later.result.replay).toMatchObject({
        recipeId: first.result.replay?.recipeId,
        checked: false,
      });
      expect(later.result.contentStats).toMatchObject({
        modelCalls: 0,
        inputTokens: 0,
        outputTokens: 0,
      });
      expect(later.summary).toContain('replayed (0 model tokens)');
    }
    expect(llm.calls).toHaveLength(2);

    // The 4th replay (every 3rd after the first) is checked again.
    const fourth = await run(5);
    expect(fourth.result.replay?.checked).toBe(true);
    expect(actionTypes()).toEqual(['EXTRACTION', 'EXTRACTION_CHECK', 'EXTRACTION_CHECK']);
  });

  it('retires a recipe the model disagrees with, returns the model’s data, and relearns', async () => {
    const learned = await run(1);
    const id = learned.result.extractionId as string;
    const first = await run(2);
    expect(first.result.replay?.checked).toBe(true);
    const recipeId = first.result.replay?.recipeId;
    for (const page of [3, 4]) expect((await run(page)).result.replay?.checked).toBe(false);
    const before = await store.extractionStrategies.get('t1', id);

    // Replay number 4 is checked; the page changed under selectors that still fit.
    const changed = await run(5, shippingPage(5));
    expect(changed.result.method).toBe('model');
    expect(changed.result.replay).toBeUndefined();
    expect(changed.result.data).toEqual(products(5));
    expect(changed.result.warnings.join(' ')).toMatch(
      new RegExp(`disagreed with the model.*recipe ${recipeId} was retired`),
    );
    expect(actionTypes().slice(2)).toEqual(['EXTRACTION_CHECK', 'EXTRACTION']);
    // The check and the model's read are both the result's cost.
    expect(changed.result.contentStats.modelCalls).toBe(2);
    const after = await store.extractionStrategies.get('t1', id);
    expect(after?.failureCount).toBe((before?.failureCount ?? 0) + 1);
    expect(after?.replay).not.toEqual(before?.replay);

    // The model's read of the changed page taught a new recipe: the next page replays it, and,
    // being its first replay, the model checks it.
    const next = await run(6, shippingPage(6));
    expect(next.result).toMatchObject({ method: 'replay', data: products(6) });
    expect(next.result.replay?.checked).toBe(true);
    expect(next.result.replay?.recipeId).not.toBe(recipeId);
    expect(next.result.replay?.recipeId.startsWith(`${id}:`)).toBe(true);
  });

  it('says which columns the replay bound by their headers', async () => {
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        properties: { sku: { type: 'string' }, price: { type: 'number' } },
        required: ['sku', 'price'],
      },
    };
    const table = (offset: number) =>
      service.run({
        tenantId: 't1',
        taskId: null,
        context: { tenantId: 't1' },
        url: `http://shop.test/prices/${offset}`,
        html: priceTableHtml(20, offset),
        request: { query: 'rows', outputSchema: schema },
        applySelector: true,
      });
    expect((await table(0)).result.method).toBe('model');
    const replayed = await table(20);
    expect(replayed.result.method).toBe('replay');
    expect(replayed.result.replay?.evidence).toEqual(
      expect.arrayContaining(['columns bound to headers: SKU, Price', "decimal mark '.'"]),
    );
  });
});

describe('comparing the check', () => {
  const items = [
    { name: 'Oak Chair', price: 10 },
    { name: 'Brass Lamp', price: 20 },
    { name: 'Linen Rug', price: 30 },
    { name: 'Steel Desk', price: 40 },
  ];
  const markdown = `# Shop\n\n## Products\n${items.map((i) => `### ${i.name}\n$${i.price}`).join('\n')}\n`;

  it('slices the first items with the lines before them', () => {
    const slice = checkSlice(markdown, items);
    expect(slice).toEqual({
      text: '# Shop\n\n## Products\n### Oak Chair\n$10\n### Brass Lamp\n$20\n### Linen Rug\n$30\n',
      cut: false,
    });
  });

  it('agrees on the same items, and disagrees on a value or an item either side lacks', () => {
    expect(compareCheck(items.slice(0, 3), items, false)).toEqual({ verdict: 'agree', items: 3 });
    expect(
      compareCheck([items[0], { ...items[1], price: 4.99 }, items[2]], items, false).verdict,
    ).toBe('disagree');
    // The replay's first item is one the model did not read in the slice (an advert?).
    expect(compareCheck(items.slice(1, 3), items, false).verdict).toBe('disagree');
    expect(compareCheck(items.slice(1, 3), items.slice(1), false).verdict).toBe('agree');
    // The model found an item first that the replay skipped.
    expect(
      compareCheck([{ name: 'Walnut Stool', price: 5 }, ...items.slice(0, 2)], items, false)
        .verdict,
    ).toBe('disagree');
    // A slice that may end inside an item: the model's last item is not compared.
    expect(compareCheck([items[0], { name: 'Brass', price: 2 }], items, true)).toEqual({
      verdict: 'agree',
      items: 1,
    });
    expect(compareCheck([], items, false).verdict).toBe('inconclusive');
  });
});
