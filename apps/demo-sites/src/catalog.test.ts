// The catalogue's ground truth on its own: the counts and traps the e2e tests and the
// benchmark rely on must hold before any page renders them.
import { describe, expect, it } from 'vitest';
import {
  CATALOG,
  PRICE_TABLE,
  PRODUCT_LIST_SCHEMA,
  SHIPPING_RATES,
  catalogPage,
  formatAmount,
  formatPrice,
  formatRating,
} from './catalog';

const allCards = CATALOG.pages.flat();
const hasTwoDecimalsAtMost = (n: number) => Math.round(n * 100) / 100 === n;

describe('catalogue products', () => {
  it('has 3 pages of 40 cards and 119 unique products, P-1001…P-1119 in order', () => {
    expect(CATALOG.pageCount).toBe(3);
    expect(CATALOG.pages.map((page) => page.length)).toStrictEqual([40, 40, 40]);
    expect(CATALOG.uniqueProducts).toHaveLength(119);
    expect(CATALOG.uniqueProducts.map((p) => p.sku)).toStrictEqual(
      Array.from({ length: 119 }, (_, i) => `P-${1001 + i}`),
    );
  });

  it('repeats only page 1’s last product, first on page 2, with identical fields', () => {
    const last = CATALOG.pages[0]?.at(-1);
    expect(last?.sku).toBe('P-1040');
    expect(CATALOG.pages[1]?.[0]).toStrictEqual(last);
    const skus = allCards.map((p) => p.sku);
    expect(skus.filter((sku, i) => skus.indexOf(sku) !== i)).toStrictEqual(['P-1040']);
  });

  it('gives every product a unique name: the repeat is the only name seen twice', () => {
    const names = allCards.map((p) => p.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toStrictEqual([
      CATALOG.pages[0]?.at(-1)?.name,
    ]);
    expect(new Set(CATALOG.uniqueProducts.map((p) => p.name)).size).toBe(119);
    for (const { name } of CATALOG.uniqueProducts) expect(name).toMatch(/^\w+ \w+ \w+( \w+)?$/);
  });

  it('formats prices as US dollars with two decimals and thousands separators', () => {
    expect(formatPrice(1249)).toBe('$1,249.00');
    expect(formatPrice(12.99)).toBe('$12.99');
    expect(formatPrice(8.5)).toBe('$8.50');
    expect(formatAmount(1346.5)).toBe('1,346.50');
    for (const { sku, price } of CATALOG.uniqueProducts) {
      expect(hasTwoDecimalsAtMost(price), sku).toBe(true);
      expect(formatPrice(price), sku).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    }
    // Both shapes the brief asks for occur: "$1,249.00"-like and "$12.99"-like.
    const prices = CATALOG.uniqueProducts.map((p) => p.price);
    expect(prices.filter((price) => price >= 1000).length).toBeGreaterThanOrEqual(3);
    expect(prices.filter((price) => price < 20).length).toBeGreaterThanOrEqual(3);
  });

  it('rates every product 1.0–5.0 with one decimal, shown as "x.y out of 5"', () => {
    const ratings = CATALOG.uniqueProducts.map((p) => p.rating);
    for (const rating of ratings) {
      expect(rating).toBeGreaterThanOrEqual(1);
      expect(rating).toBeLessThanOrEqual(5);
      expect(Math.round(rating * 10) / 10).toBe(rating);
      expect(formatRating(rating)).toMatch(/^[1-5]\.\d out of 5$/);
    }
    expect(formatRating(4)).toBe('4.0 out of 5');
    expect(formatRating(4.5)).toBe('4.5 out of 5');
    expect(new Set(ratings).size).toBeGreaterThan(30);
  });

  it('uses all three stock states', () => {
    const counts = new Map<string, number>();
    for (const { stock } of CATALOG.uniqueProducts) counts.set(stock, (counts.get(stock) ?? 0) + 1);
    expect([...counts.keys()].sort()).toStrictEqual(['In stock', 'Low stock', 'Out of stock']);
    expect(Math.min(...counts.values())).toBeGreaterThanOrEqual(10);
  });

  it('matches PRODUCT_LIST_SCHEMA: every required field has the declared type', () => {
    const { properties, required } = PRODUCT_LIST_SCHEMA.items;
    expect(PRODUCT_LIST_SCHEMA.type).toBe('array');
    for (const product of CATALOG.uniqueProducts) {
      for (const key of required) {
        const expected = properties[key].type === 'number' ? 'number' : 'string';
        expect(typeof product[key], `${product.sku}.${key}`).toBe(expected);
      }
    }
  });
});

describe('catalogPage', () => {
  it('serves each page with the repeated product flagged as featured on page 2 only', () => {
    expect(catalogPage(1)).toStrictEqual({
      page: 1,
      pageCount: 3,
      products: CATALOG.pages[0],
      featuredSkus: [],
    });
    expect(catalogPage(2)?.featuredSkus).toStrictEqual(['P-1040']);
    expect(catalogPage(3)?.featuredSkus).toStrictEqual([]);
  });

  it('has no page 0, 4 or 1.5', () => {
    for (const bad of [0, 4, 1.5, -1, Number.NaN]) expect(catalogPage(bad), String(bad)).toBeNull();
  });
});

describe('price list', () => {
  it('has 500 distinct rows Q-0001…Q-0500 that share nothing with the cards', () => {
    expect(PRICE_TABLE).toHaveLength(500);
    expect(PRICE_TABLE.map((row) => row.sku)).toStrictEqual(
      Array.from({ length: 500 }, (_, i) => `Q-${String(i + 1).padStart(4, '0')}`),
    );
    const products = new Set(PRICE_TABLE.map((row) => row.product));
    expect(products.size).toBe(500);
    for (const card of CATALOG.uniqueProducts) expect(products.has(card.name)).toBe(false);
  });

  it('has positive two-decimal prices, some past 1,000, in three currencies', () => {
    for (const { sku, price } of PRICE_TABLE) {
      expect(price, sku).toBeGreaterThan(0);
      expect(hasTwoDecimalsAtMost(price), sku).toBe(true);
    }
    expect(PRICE_TABLE.filter((row) => row.price >= 1000).length).toBeGreaterThanOrEqual(5);
    expect(new Set(PRICE_TABLE.map((row) => row.currency))).toStrictEqual(
      new Set(['USD', 'EUR', 'GBP']),
    );
  });
});

describe('shipping rates table', () => {
  it('has a header row, one short row and one cell spanning two columns', () => {
    const widths = SHIPPING_RATES.rows.map((row) =>
      row.reduce((sum, cell) => sum + (cell.colSpan ?? 1), 0),
    );
    expect(widths).toStrictEqual([4, 4, 4, 3, 4]);
    expect(SHIPPING_RATES.rows[0]?.map((cell) => cell.text)).toStrictEqual([
      'Destination',
      'Standard',
      'Express',
      'Delivery',
    ]);
    expect(SHIPPING_RATES.rows.flat().filter((cell) => cell.colSpan === 2)).toHaveLength(1);
  });
});
