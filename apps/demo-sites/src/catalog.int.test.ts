// The product catalogue in real Chromium: three pages of 40 cards, the repeated "Featured"
// product, the shipping table without <thead>, and the 500-row price list, each compared with
// the ground truth the extraction tests and benchmark score against.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CATALOG,
  PRICE_TABLE,
  SHIPPING_RATES,
  catalogPage,
  formatAmount,
  formatPrice,
  formatRating,
} from './catalog';
import type { Product } from './catalog';
import { DEMO_API, DEMO_PAGES } from './pages';
import { startDemoSites } from './server';
import type { DemoSites } from './server';
import { openBrowser } from './test/browser';
import type { BrowserFixture } from './test/browser';

let sites: DemoSites;
let fixture: BrowserFixture;

beforeAll(async () => {
  [sites, fixture] = await Promise.all([startDemoSites(), openBrowser()]);
});
afterAll(async () => {
  await fixture?.browser.close();
  await sites?.close();
});
beforeEach(() => {
  fixture.problems.length = 0;
});
afterEach(() => {
  expect(fixture.problems).toEqual([]);
});

interface Card {
  sku: string | null;
  name: string | null;
  price: string | null;
  rating: string | null;
  stock: string | null;
  featured: boolean;
  addToCart: 'enabled' | 'disabled' | null;
}

/** What a reader of the page sees on each card, through the selectors the brief names. */
async function readCards(): Promise<Card[]> {
  const { page } = fixture;
  await page.locator('#product-grid[aria-busy="false"]').waitFor();
  return page.locator('article.product-card').evaluateAll((articles) =>
    articles.map((article) => {
      const el = article as HTMLElement;
      const textOf = (selector: string) => el.querySelector(selector)?.textContent?.trim() ?? null;
      const button = [...el.querySelectorAll('button')].find(
        (b) => b.textContent?.trim() === 'Add to cart',
      );
      return {
        sku: el.dataset.sku ?? null,
        name: textOf('h3.product-name'),
        price: textOf('span.price'),
        rating: textOf('span.rating'),
        stock: textOf('span.stock'),
        featured: textOf('.badge') === 'Featured',
        addToCart: button ? (button.disabled ? 'disabled' : 'enabled') : null,
      };
    }),
  );
}

const shown = (product: Product, featured = false): Card => ({
  sku: product.sku,
  name: product.name,
  price: formatPrice(product.price),
  rating: formatRating(product.rating),
  stock: product.stock,
  featured,
  addToCart: product.stock === 'Out of stock' ? 'disabled' : 'enabled',
});

describe('product catalogue', () => {
  it('shows 40 cards per page over 3 pages, reached by following "Next page"', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.catalog}`);
    const seen: Card[][] = [];
    for (;;) {
      seen.push(await readCards());
      const position = await page.locator('[aria-current="page"]').textContent();
      expect(position).toBe(`Page ${seen.length} of 3`);
      const next = page.getByRole('link', { name: 'Next page' });
      if ((await next.count()) === 0) break;
      await next.click();
      await page.waitForURL(`**/catalog/?page=${seen.length + 1}`);
    }
    expect(seen.map((cards) => cards.length)).toStrictEqual([40, 40, 40]);
    expect(await page.getByText('Last page').isVisible()).toBe(true);

    // Every card shows exactly its ground-truth product, formatted as the brief describes.
    const featuredSkus = [[], ['P-1040'], []];
    seen.forEach((cards, n) => {
      const expected = (CATALOG.pages[n] ?? []).map((p) =>
        shown(p, featuredSkus[n]?.includes(p.sku)),
      );
      expect(cards, `page ${n + 1}`).toStrictEqual(expected);
    });
  });

  it('repeats page 1’s last product on page 2 as "Featured"; 120 cards are 119 products', async () => {
    const { page } = fixture;
    const cards: Card[] = [];
    for (const path of [DEMO_PAGES.catalog, DEMO_PAGES.catalogPage2, DEMO_PAGES.catalogPage3]) {
      await page.goto(`${sites.url}${path}`);
      cards.push(...(await readCards()));
    }
    expect(cards).toHaveLength(120);
    const copies = cards.filter((card) => card.sku === 'P-1040');
    expect(copies.map((card) => card.featured)).toStrictEqual([false, true]);
    expect(copies[1]).toStrictEqual({ ...copies[0], featured: true });
    expect(cards.indexOf(copies[1] as Card)).toBe(40); // the first card of page 2
    expect(cards.filter((card) => card.featured)).toHaveLength(1);

    const uniqueSkus = [...new Set(cards.map((card) => card.sku))];
    expect(uniqueSkus).toHaveLength(119);
    expect(uniqueSkus).toStrictEqual(CATALOG.uniqueProducts.map((p) => p.sku));
    expect(new Set(cards.map((card) => card.name)).size).toBe(119);
  });

  it('goes back with "Previous page" and adds to the cart', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.catalogPage3}`);
    await readCards();
    const previous = page.getByRole('link', { name: 'Previous page' });
    expect(await previous.getAttribute('href')).toBe('/catalog/?page=2');
    await previous.click();
    await page.waitForURL('**/catalog/?page=2');
    expect((await readCards())[1]?.sku).toBe('P-1041');
    await page.getByRole('link', { name: 'Previous page' }).click();
    await page.waitForURL('**/catalog/?page=1');
    expect((await readCards())[0]?.sku).toBe('P-1001');
    expect(await page.getByRole('link', { name: 'Previous page' }).count()).toBe(0);

    const first = CATALOG.pages[0]?.[0] as Product;
    expect(first.stock).not.toBe('Out of stock');
    await page
      .locator(`article[data-sku="${first.sku}"]`)
      .getByRole('button', { name: 'Add to cart' })
      .click();
    expect(await page.locator('#cart-status').textContent()).toBe(
      `Added ${first.name} to your cart (1 item).`,
    );
  });
});

describe('shipping rates table', () => {
  /** Each row's cells as the DOM has them: text and colspan (omitted when 1). */
  const readTable = () =>
    fixture.page
      .locator('#shipping-rates tr')
      .evaluateAll((rows) =>
        rows.map((row) =>
          [...(row as HTMLTableRowElement).cells].map((cell) =>
            cell.colSpan > 1
              ? { text: cell.textContent?.trim() ?? '', colSpan: cell.colSpan }
              : { text: cell.textContent?.trim() ?? '' },
          ),
        ),
      );

  it('is on page 1 without <thead>: the header row is <td>s, one row short, one colspan', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.catalog}`);
    await readCards();
    const table = page.locator('#shipping-rates');
    expect(await table.locator('thead').count()).toBe(0);
    expect(await table.locator('th').count()).toBe(0);
    expect(await table.locator('caption').textContent()).toContain(SHIPPING_RATES.caption);
    expect(await page.getByRole('table', { name: SHIPPING_RATES.caption }).count()).toBe(1);
    expect(await readTable()).toStrictEqual(SHIPPING_RATES.rows);
  });

  it('is not on pages 2 and 3, not even hidden', async () => {
    const { page } = fixture;
    for (const path of [DEMO_PAGES.catalogPage2, DEMO_PAGES.catalogPage3]) {
      await page.goto(`${sites.url}${path}`);
      await readCards();
      expect(await page.locator('table').count(), path).toBe(0);
      expect(await page.getByText('Shipping rates').count(), path).toBe(0);
    }
  });
});

describe('price list', () => {
  it('shows the 500 rows of PRICE_TABLE under a real <thead>', async () => {
    const { page } = fixture;
    await page.goto(`${sites.url}${DEMO_PAGES.catalogPrices}`);
    await page.locator('#price-rows[aria-busy="false"]').waitFor();
    const table = page.getByRole('table', { name: 'Price list' });
    expect(
      await table
        .locator('thead th')
        .evaluateAll((cells) => cells.map((cell) => cell.textContent?.trim())),
    ).toStrictEqual(['SKU', 'Product', 'Price', 'Currency']);
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          [...(tr as HTMLTableRowElement).cells].map((cell) => cell.textContent?.trim()),
        ),
      );
    expect(rows).toHaveLength(500);
    expect(rows).toStrictEqual(
      PRICE_TABLE.map((row) => [row.sku, row.product, formatAmount(row.price), row.currency]),
    );
    expect(await page.locator('#price-summary').textContent()).toBe('500 items');
  });

  it('is also reached at /catalog/prices, without the trailing slash', async () => {
    const response = await fetch(`${sites.url}/catalog/prices`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe(DEMO_PAGES.catalogPrices);
  });
});

describe('catalogue API', () => {
  it('answers each page as the catalogue renders it, and 404 past the last one', async () => {
    for (let n = 1; n <= 3; n++) {
      const res = await fetch(`${sites.url}${DEMO_API.catalog}?page=${n}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toStrictEqual(catalogPage(n));
    }
    const first = await (await fetch(`${sites.url}${DEMO_API.catalog}`)).json();
    expect(first.page).toBe(1);
    for (const bad of ['4', '0', 'x', '-1']) {
      const res = await fetch(`${sites.url}${DEMO_API.catalog}?page=${bad}`);
      expect(res.status, bad).toBe(404);
      expect((await res.json()).error.code).toBe('NOT_FOUND');
    }
    const post = await fetch(`${sites.url}${DEMO_API.catalog}`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('serves the price list rows', async () => {
    const res = await fetch(`${sites.url}${DEMO_API.catalogPrices}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toStrictEqual({ rows: PRICE_TABLE });
    const post = await fetch(`${sites.url}${DEMO_API.catalogPrices}`, { method: 'POST' });
    expect(post.status).toBe(405);
  });
});
