// The sampled cross-check of replays end to end: the real service, store (libSQL in memory) and
// page reader, with the scripted model reading only its prompt. A recipe's first replay is read
// again by the model on a slice of the page; the next ones, until the Nth, cost nothing; a page
// whose selectors still fit but now mean something else is caught by the check, the recipe is
// retired and the model's data returned.
import { createLibsqlStore, type ExtractionStrategy, type Store } from '@tandem/store';
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

/** The shop's other layout: tiles instead of cards, the same products. */
const tiles = (page: number) =>
  catalogPageHtml((page - 1) * COUNT, COUNT, page)
    .replace(/<article class="product-card"/g, '<div class="tile"')
    .replace(/<\/article>/g, '</div>')
    .replace(/class="product-name"/g, 'class="title"');

type Entry = { id: string; replays: number; recipe: Record<string, unknown> };
const recipesOf = (strategy: ExtractionStrategy | null): Entry[] =>
  (strategy?.replay?.['recipes'] as Entry[] | undefined) ?? [];

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

  it('retires only the recipe that disagreed: the other layout’s recipe stays and replays', async () => {
    const learned = await run(1);
    const id = learned.result.extractionId as string;
    // The other layout: the cards' recipe declines, the model reads it, a second recipe.
    const other = await run(2, tiles(2));
    expect(other.result.method).toBe('model');
    expect(other.result.extractionId).toBe(id);
    const two = recipesOf(await store.extractionStrategies.get('t1', id));
    expect(two).toHaveLength(2);
    // Each layout's recipe replays, its first replay checked on its own count.
    const cards = await run(3);
    const tileReplay = await run(4, tiles(4));
    expect(cards.result).toMatchObject({ method: 'replay', data: products(3) });
    expect(tileReplay.result).toMatchObject({ method: 'replay', data: products(4) });
    expect(cards.result.replay?.checked).toBe(true);
    expect(tileReplay.result.replay?.checked).toBe(true);
    expect(cards.result.replay?.recipeId).not.toBe(tileReplay.result.replay?.recipeId);
    for (const page of [5, 6]) expect((await run(page)).result.replay?.checked).toBe(false);
    // The cards' 4th replay is checked, on a page whose selectors fit but mean something else.
    const changed = await run(7, shippingPage(7));
    expect(changed.result.method).toBe('model');
    const cardsId = cards.result.replay?.recipeId as string;
    expect(changed.result.warnings.join(' ')).toContain(`recipe ${cardsId} was retired`);
    const after = recipesOf(await store.extractionStrategies.get('t1', id));
    const tileId = (tileReplay.result.replay?.recipeId as string).split(':')[1];
    expect(after.map((r) => r.id)).toContain(tileId);
    expect(after.map((r) => r.id)).not.toContain(cardsId.split(':')[1]);
    // The tiles replay on, unchecked (their 2nd replay): nothing of theirs was lost.
    const tilesAgain = await run(8, tiles(8));
    expect(tilesAgain.result).toMatchObject({ method: 'replay', data: products(8) });
    expect(tilesAgain.result.replay).toMatchObject({
      recipeId: tileReplay.result.replay?.recipeId,
      checked: false,
    });
  });

  it('counts concurrent replays each, and reads a replay stored before recipe lists', async () => {
    const learned = await run(1);
    const id = learned.result.extractionId as string;
    const [entry] = recipesOf(await store.extractionStrategies.get('t1', id));
    // A database written before lists: the recipe itself, its count beside it.
    await store.extractionStrategies.setReplay('t1', id, { ...entry?.recipe, replays: 1 });
    const legacy = await run(2);
    expect(legacy.result).toMatchObject({ method: 'replay', data: products(2) });
    // Its 2nd replay (every 3rd is checked): not checked, and the same recipeId as before.
    expect(legacy.result.replay).toMatchObject({ recipeId: `${id}:${entry?.id}`, checked: false });
    expect(recipesOf(await store.extractionStrategies.get('t1', id))).toMatchObject([
      { id: entry?.id, replays: 2 },
    ]);
    const both = await Promise.all([run(3), run(4)]);
    for (const out of both) expect(out.result.method).toBe('replay');
    expect(recipesOf(await store.extractionStrategies.get('t1', id))).toMatchObject([
      { id: entry?.id, replays: 4 },
    ]);

    // An older replay the check disagrees with is retired for good: the relearn in the same
    // run does not bring it back from the old shape.
    await store.extractionStrategies.setReplay('t1', id, { ...entry?.recipe, replays: 3 });
    const changed = await run(5, shippingPage(5));
    expect(changed.result.method).toBe('model');
    expect(changed.result.warnings.join(' ')).toContain(`recipe ${id}:${entry?.id} was retired`);
    const after = recipesOf(await store.extractionStrategies.get('t1', id));
    expect(after).toHaveLength(1);
    expect(after[0]?.id).not.toBe(entry?.id);
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
    const learned = await table(0);
    expect(learned.result.method).toBe('model');
    // /prices/20 is not /prices/0: the model reads it, and the recipe reading it the same
    // widens the pattern at that segment (and no second strategy is made).
    const second = await table(20);
    expect(second.result).toMatchObject({
      method: 'model',
      extractionId: learned.result.extractionId,
    });
    expect(
      (await store.extractionStrategies.get('t1', learned.result.extractionId as string))
        ?.urlPattern,
    ).toBe('http://shop.test/prices/*?**');
    expect(await store.extractionStrategies.listByDomain('t1', 'shop.test')).toHaveLength(1);
    const replayed = await table(40);
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
