// Replay only on evidence: pages that look like the learning page but are not read the same way
// (another number format, a split price, moved table columns, adverts, another entity, a badge
// before a bare name) must either replay exactly or fail the spot check with the reason.
import { describe, expect, it } from 'vitest';
import { page } from './test-pages';
import { applyRecipe } from './apply';
import { entityProblem, entityWords } from './entity';
import { learnRecipe } from './learn';
import type { ReplayRecipe } from './recipe';
import { spotCheck, spotCheckWithEvidence } from './spot-check';

const LIST = {
  type: 'array',
  items: {
    type: 'object',
    properties: { name: { type: 'string' }, price: { type: 'number' } },
    required: ['name', 'price'],
  },
};
const TABLE = {
  type: 'array',
  items: {
    type: 'object',
    properties: { sku: { type: 'string' }, item: { type: 'string' }, stock: { type: 'integer' } },
    required: ['sku', 'item', 'stock'],
  },
};

const shell = (lang: string, title: string, main: string) =>
  `<!doctype html><html lang="${lang}"><head><title>${title}</title></head><body><main><h1>${title}</h1>${main}</main></body></html>`;

type Card = { name: string; price: string; extra?: string; bare?: boolean };
const cards = (list: Card[]) =>
  `<div class="grid">${list
    .map(({ name, price, extra = '', bare }) =>
      bare
        ? `<div class="item">${extra}<div><span>${name}</span></div><div><span class="price">${price}</span></div></div>`
        : `<article class="card">${extra}<h3 class="name">${name}</h3><p><span class="price">${price}</span></p></article>`,
    )
    .join('')}</div>`;

function learned(doc: Document, data: unknown, schema: Record<string, unknown>): ReplayRecipe {
  const result = learnRecipe(doc, data, schema);
  if (!result.recipe) throw new Error(`no recipe: ${result.reason}`);
  return result.recipe;
}

/** The replay's data when the spot check takes it, else the spot check's reason. */
function replay(doc: Document, recipe: ReplayRecipe): unknown {
  const { data } = applyRecipe(doc, recipe);
  return spotCheck(doc, recipe, data) ?? data;
}

const NAMES = ['Oak Chair', 'Brass Lamp', 'Linen Rug', 'Steel Stool'];

describe('numbers in the learned format', () => {
  it('learns a decimal comma and reads French and German groupings by it', () => {
    const prices = ['3\u202f773,11\u00a0€', '12,50\u00a0€', '1\u202f000,99\u00a0€', '7,05\u00a0€'];
    const values = [3773.11, 12.5, 1000.99, 7.05];
    const doc = page(
      shell(
        'fr-FR',
        'Catalogue',
        cards(NAMES.map((name, i) => ({ name, price: prices[i] as string }))),
      ),
    );
    const recipe = learned(
      doc,
      NAMES.map((name, i) => ({ name, price: values[i] })),
      LIST,
    );
    expect(recipe.fields.price?.decimal).toBe(',');
    const later = page(
      shell(
        'de-DE',
        'Catalogue',
        cards([
          { name: 'Oak Chair', price: '1.908\u00a0€' },
          { name: 'Brass Lamp', price: '19,90\u00a0€' },
        ]),
      ),
    );
    expect(replay(later, recipe)).toEqual([
      { name: 'Oak Chair', price: 1908 },
      { name: 'Brass Lamp', price: 19.9 },
    ]);
    // Dollar prices do not read under a decimal comma: the replay declines instead of guessing.
    const dollars = page(
      shell('en-US', 'Catalogue', cards([{ name: 'Oak Chair', price: '$1,234.50' }])),
    );
    expect(replay(dollars, recipe)).toMatch(/does not read as the learned type and format/);
  });

  it('reads the whole price element when a later page splits it into spans', () => {
    const doc = page(
      shell(
        'en-US',
        'Catalog',
        cards(NAMES.map((name, i) => ({ name, price: `$<span>${219 + i}</span>` }))),
      ),
    );
    const recipe = learned(
      doc,
      NAMES.map((name, i) => ({ name, price: 219 + i })),
      LIST,
    );
    expect(recipe.fields.price?.selector).toBe('span.price');
    const split = page(
      shell(
        'en-US',
        'Catalog',
        cards([{ name: 'Oak Chair', price: '$<span>1,219</span><sup>.99</sup>' }]),
      ),
    );
    expect(replay(split, recipe)).toEqual([{ name: 'Oak Chair', price: 1219.99 }]);
    // A rule that reads the part of the number declines.
    const part = {
      ...recipe,
      fields: {
        ...recipe.fields,
        price: { ...recipe.fields.price, selector: 'span.price > span' },
      },
    } as ReplayRecipe;
    expect(replay(split, part)).toMatch(/part of the number/);
  });
});

describe('table columns bound to their headers', () => {
  const ROWS = [
    { sku: 'A-1001', item: 'Oak Chair', stock: 4 },
    { sku: 'B-1002', item: 'Brass Lamp', stock: 12 },
    { sku: 'C-1003', item: 'Linen Rug', stock: 0 },
  ];
  const table = (title: string, headers: string[], cells: (r: (typeof ROWS)[number]) => string[]) =>
    shell(
      'en-US',
      title,
      `<table><thead><tr>${headers.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${ROWS.map(
        (r) =>
          `<tr>${cells(r)
            .map((c) => `<td>${c}</td>`)
            .join('')}</tr>`,
      ).join('')}</tbody></table>`,
    );
  const recipe = () =>
    learned(
      page(table('Inventory', ['SKU', 'Item', 'Stock'], (r) => [r.sku, r.item, String(r.stock)])),
      ROWS,
      TABLE,
    );

  it('follows swapped and inserted columns by their header text', () => {
    const learnedRecipe = recipe();
    expect(learnedRecipe.headers).toEqual(['SKU', 'Item', 'Stock']);
    const swapped = page(
      table('Inventory', ['Item', 'SKU', 'Stock'], (r) => [r.item, r.sku, String(r.stock)]),
    );
    expect(replay(swapped, learnedRecipe)).toEqual(ROWS);
    const added = page(
      table('Inventory', ['Location', 'SKU', 'Item', 'Stock'], (r) => [
        'Aisle 3',
        r.sku,
        r.item,
        String(r.stock),
      ]),
    );
    expect(replay(added, learnedRecipe)).toEqual(ROWS);
    expect(applyRecipe(added, learnedRecipe).warnings.join(' ')).toMatch(/columns moved/);
  });

  it('learns a table whose header row sits in <tbody>, and replays it', () => {
    const bare = (title: string, rows: typeof ROWS) =>
      shell(
        'de-DE',
        title,
        `<table><tbody><tr><th>SKU</th><th>Item</th><th>Stock</th></tr>${rows.map((r) => `<tr><td>${r.sku}</td><td>${r.item}</td><td>${r.stock}</td></tr>`).join('')}</tbody></table>`,
      );
    const learnedRecipe = learned(page(bare('Inventory', ROWS)), ROWS, TABLE);
    const next = ROWS.map((r) => ({ ...r, stock: r.stock + 1 }));
    expect(replay(page(bare('Inventory', next)), learnedRecipe)).toEqual(next);
  });

  it('declines a table whose headers only partly match, and a table about another entity', () => {
    const learnedRecipe = recipe();
    const partly = page(
      table('Inventory', ['Item', 'Code', 'Stock'], (r) => [r.item, r.sku, String(r.stock)]),
    );
    expect(replay(partly, learnedRecipe)).toMatch(/lack the learned column\(s\) sku under "SKU"/);
    const shipments = page(
      table('Shipments', ['Tracking no.', 'Destination', 'Parcels'], (r) => [
        r.sku,
        r.item,
        String(r.stock),
      ]),
    );
    expect(replay(shipments, learnedRecipe)).toMatch(/share no word with the learning page/);
  });
});

describe('look-alike items', () => {
  const data = NAMES.map((name, i) => ({ name, price: 10 + i }));
  const shown = (bare = false): Card[] =>
    NAMES.map((name, i) => ({ name, price: `$${10 + i}.00`, bare }));

  it('learns what marked the skipped "Sponsored" tiles and leaves them out', () => {
    const ad: Card = {
      name: 'Acme Blender Pro',
      price: '$99.00',
      extra: '<span class="tag">Sponsored</span>',
    };
    const doc = page(shell('en-US', 'Catalog', cards([ad, ...shown()])));
    const recipe = learned(doc, data, LIST);
    expect(recipe.exclude).toEqual({ text: 'Sponsored' });
    const later = page(shell('en-US', 'Catalog', cards([...shown().slice(0, 2), ad])));
    expect(replay(later, recipe)).toEqual(data.slice(0, 2));
    // What the spot check verified is the replayed result's evidence.
    expect(spotCheckWithEvidence(later, recipe, data.slice(0, 2))).toEqual({
      problem: null,
      evidence: expect.arrayContaining([
        '2 items re-read',
        'look-alikes excluded: 1 marked Sponsored',
        "title shares 'catalog'",
      ]),
    });
  });

  it('declines a page with adverts the learning page did not show', () => {
    const recipe = learned(page(shell('en-US', 'Catalog', cards(shown()))), data, LIST);
    const ad: Card = { name: 'Acme Blender Pro', price: '$99.00', extra: '<span>Sponsored</span>' };
    const later = page(shell('en-US', 'Catalog', cards([ad, ...shown()])));
    expect(replay(later, recipe)).toMatch(/marked as an advert \(Sponsored\)/);
  });

  it('declines when a bare name selector meets a badge in a bare span', () => {
    const recipe = learned(page(shell('en-US', 'Catalog', cards(shown(true)))), data, LIST);
    const badged = shown(true).map((card) => ({
      ...card,
      name: `<span>New</span> <span>${card.name}</span>`,
    }));
    const later = page(shell('en-US', 'Catalog', cards(badged)));
    expect(replay(later, recipe)).toMatch(/names elements by tag/);
  });
});

describe('the entity a list page is about', () => {
  it('compares title and heading words, ignoring paging and filler', () => {
    const words = entityWords(page(shell('en-US', 'Catalog, page 1', '')));
    expect(words).toEqual(['catalog']);
    expect(entityProblem(page(shell('en-US', 'Catalog, page 7', '')), words)).toBeNull();
    expect(entityProblem(page(shell('en-US', 'Your orders', '')), words)).toMatch(/share no word/);
    // Search pages titled by their query still share what kind of page they are.
    const search = entityWords(page(shell('en-US', 'Search results for chairs', '')));
    expect(entityProblem(page(shell('en-US', 'Search results for lamps', '')), search)).toBeNull();
  });
});
