// The product catalogue's data: fixed (no randomness, no clock) so a structured-extraction
// benchmark (docs/specs.md, "extraction overhaul") can compare what an agent extracted with exactly
// what the pages show. The traps it sets: one product repeated on the next page (a "Featured" card,
// so a correct multi-page merge dedups 120 cards to 119 products), prices from "$8.49" to
// "$1,249.00", a specs table whose header row is in <td>s (no <thead>) with a short row and a
// colspan, and a 500-row price list for chunked extraction.

export type StockStatus = 'In stock' | 'Low stock' | 'Out of stock';

export interface Product {
  /** "P-1001"…, shown on the card and in `data-sku`. */
  readonly sku: string;
  readonly name: string;
  /** US dollars; the card shows it as "$1,249.00". */
  readonly price: number;
  /** 1.0–5.0 in steps of 0.1; the card shows "4.5 out of 5". */
  readonly rating: number;
  readonly stock: StockStatus;
}

export interface CatalogPage {
  readonly page: number;
  readonly pageCount: number;
  /** The cards of the page in display order, the featured one included. */
  readonly products: readonly Product[];
  /** Cards on this page that repeat a product from an earlier page (marked "Featured"). */
  readonly featuredSkus: readonly string[];
}

export type Currency = 'USD' | 'EUR' | 'GBP';

export interface PriceRow {
  /** "Q-0001"…"Q-0500": a namespace of its own, so the list never matches a card by accident. */
  readonly sku: string;
  readonly product: string;
  /** Shown as "1,249.00" in the Price column, the currency in its own column. */
  readonly price: number;
  readonly currency: Currency;
}

export interface TableCell {
  readonly text: string;
  /** Present only on a cell that spans columns. */
  readonly colSpan?: number;
}

/** Cards per catalogue page. */
export const PRODUCTS_PER_PAGE = 40;

const ADJECTIVES = [
  'Classic',
  'Modern',
  'Rustic',
  'Compact',
  'Deluxe',
  'Nordic',
  'Vintage',
  'Minimalist',
  'Everyday',
  'Premium',
] as const;

interface ProductType {
  readonly name: string;
  /** Materials such a product is really made of, so names read like a shop's. */
  readonly materials: readonly string[];
  /** Price band in whole dollars: low end and width. */
  readonly from: number;
  readonly span: number;
}

const TYPES: readonly ProductType[] = [
  { name: 'Desk Lamp', materials: ['Brass', 'Ceramic', 'Oak', 'Steel'], from: 39, span: 90 },
  { name: 'Coffee Mug', materials: ['Ceramic', 'Stoneware', 'Enamel', 'Glass'], from: 8, span: 22 },
  { name: 'Throw Pillow', materials: ['Linen', 'Velvet', 'Wool', 'Cotton'], from: 19, span: 45 },
  { name: 'Side Table', materials: ['Oak', 'Walnut', 'Marble', 'Steel'], from: 129, span: 300 },
  { name: 'Water Bottle', materials: ['Steel', 'Glass', 'Copper', 'Bamboo'], from: 12, span: 30 },
  { name: 'Bookshelf', materials: ['Oak', 'Pine', 'Walnut', 'Steel'], from: 149, span: 500 },
  { name: 'Wall Clock', materials: ['Oak', 'Brass', 'Steel', 'Glass'], from: 24, span: 70 },
  { name: 'Area Rug', materials: ['Wool', 'Jute', 'Cotton', 'Silk'], from: 89, span: 1400 },
  { name: 'Cutting Board', materials: ['Maple', 'Bamboo', 'Walnut', 'Acacia'], from: 14, span: 60 },
  { name: 'Armchair', materials: ['Leather', 'Velvet', 'Linen', 'Oak'], from: 299, span: 1500 },
  { name: 'Picture Frame', materials: ['Oak', 'Brass', 'Silver', 'Walnut'], from: 9, span: 40 },
  { name: 'Dining Chair', materials: ['Oak', 'Walnut', 'Rattan', 'Steel'], from: 89, span: 300 },
];

const CENTS = [0, 99, 50, 95, 49] as const;

function pick<T>(list: readonly T[], index: number): T {
  return list[index % list.length] as T;
}

/** Prices are built in cents so "$12.99" never turns into 12.990000000000002. */
function priceFor(index: number, from: number, span: number): number {
  const dollars = from + ((index * 37) % span);
  return (dollars * 100 + pick(CENTS, index)) / 100;
}

/**
 * Product `index` (0-based). The type cycles fastest and the adjective advances once per
 * cycle, so names stay unique for TYPES × ADJECTIVES = 120 products.
 */
function productAt(index: number): Product {
  const type = pick(TYPES, index);
  const adjective = pick(ADJECTIVES, Math.floor(index / TYPES.length));
  const material = pick(type.materials, index * 3 + Math.floor(index / TYPES.length));
  const stock: StockStatus =
    index % 7 === 3 ? 'Out of stock' : index % 5 === 1 ? 'Low stock' : 'In stock';
  return {
    sku: `P-${1001 + index}`,
    name: `${adjective} ${material} ${type.name}`,
    price: priceFor(index, type.from, type.span),
    // Tenths 10…50, so every rating has exactly one decimal and 1.0 and 5.0 both occur.
    rating: (10 + ((index * 13 + 29) % 41)) / 10,
    stock,
  };
}

const PRODUCTS: readonly Product[] = Array.from({ length: 119 }, (_, index) => productAt(index));

const slice = (from: number, count: number) => PRODUCTS.slice(from, from + count);

/**
 * 120 cards, 119 products: page 2 opens with page 1's last product again as "Featured",
 * then 39 new ones; page 3 has the last 40.
 */
const PAGES: readonly (readonly Product[])[] = [
  slice(0, PRODUCTS_PER_PAGE),
  [PRODUCTS[PRODUCTS_PER_PAGE - 1] as Product, ...slice(PRODUCTS_PER_PAGE, PRODUCTS_PER_PAGE - 1)],
  slice(2 * PRODUCTS_PER_PAGE - 1, PRODUCTS_PER_PAGE),
];

function dedupeBySku(products: readonly Product[]): Product[] {
  const seen = new Map<string, Product>();
  for (const product of products) if (!seen.has(product.sku)) seen.set(product.sku, product);
  return [...seen.values()];
}

export const CATALOG = {
  pageCount: PAGES.length,
  /** Every card, page by page, in display order (40 per page). */
  pages: PAGES,
  /** Each product once, by sku in first-seen order: what a correct extraction collects. */
  uniqueProducts: dedupeBySku(PAGES.flat()) as readonly Product[],
} as const;

/** Page `page` (1-based) as the API serves it, or null when there is no such page. */
export function catalogPage(page: number): CatalogPage | null {
  const products = Number.isInteger(page) ? PAGES[page - 1] : undefined;
  if (!products) return null;
  const earlier = new Set(PAGES.slice(0, page - 1).flatMap((p) => p.map((x) => x.sku)));
  return {
    page,
    pageCount: PAGES.length,
    products,
    featuredSkus: products.filter((p) => earlier.has(p.sku)).map((p) => p.sku),
  };
}

/** What a card shows for a price: US format, always two decimals ("$1,249.00", "$12.99"). */
export function formatPrice(price: number): string {
  return `$${formatAmount(price)}`;
}

/** The Price column of the price list: "1,249.00" (the currency has a column of its own). */
export function formatAmount(amount: number): string {
  return amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** What a card shows for a rating: "4.5 out of 5", "4.0 out of 5". */
export function formatRating(rating: number): string {
  return `${rating.toFixed(1)} out of 5`;
}

/** Spare parts and care products, each with a price band in whole dollars (from, span). */
const PARTS: readonly (readonly [string, number, number])[] = [
  ['Replacement Bulb', 3, 12],
  ['Lamp Shade', 19, 60],
  ['Felt Pad Set', 4, 10],
  ['Shelf Bracket', 6, 20],
  ['Cushion Insert', 14, 40],
  ['Table Leg', 22, 80],
  ['Wall Anchor Kit', 5, 12],
  ['Glass Lid', 9, 25],
  ['Drawer Pull', 4, 18],
  ['Cabinet Hinge', 7, 20],
  ['Chair Glide Set', 6, 15],
  ['Rug Gripper', 12, 45],
  ['Picture Hook Kit', 3, 9],
  ['Clock Movement', 15, 50],
  ['Marble Tabletop', 480, 900],
  ['Mug Coaster Set', 11, 30],
  ['Wood Oil', 9, 20],
  ['Leather Conditioner', 13, 25],
  ['Upholstery Cleaner', 10, 22],
  ['Touch-Up Marker', 5, 8],
];
const FINISHES = ['Matte Black', 'Brushed Brass', 'Natural', 'White', 'Chrome'] as const;
const SIZES = ['Small', 'Medium', 'Large', 'XL', 'Pack of 4'] as const;
const CURRENCIES: readonly Currency[] = ['USD', 'USD', 'EUR', 'USD', 'GBP'];

/**
 * Row `index` (0-based) of the price list. Mixed radix over parts × finishes × sizes keeps
 * all 500 names unique; marble tabletops pass $1,000 now and then, so the thousands
 * separator shows up.
 */
function priceRowAt(index: number): PriceRow {
  const [part, from, span] = pick(PARTS, index);
  const finish = pick(FINISHES, Math.floor(index / PARTS.length));
  const size = pick(SIZES, Math.floor(index / (PARTS.length * FINISHES.length)));
  const dollars = from + ((index * 29) % span);
  return {
    sku: `Q-${String(index + 1).padStart(4, '0')}`,
    product: `${part}, ${finish} (${size})`,
    price: (dollars * 100 + pick(CENTS, index * 3)) / 100,
    currency: pick(CURRENCIES, index * 7),
  };
}

/** The 500 rows of `/catalog/prices/`, in display order. */
export const PRICE_TABLE: readonly PriceRow[] = Array.from({ length: 500 }, (_, index) =>
  priceRowAt(index),
);

/**
 * The "Shipping rates" table on catalogue page 1, cell by cell as the DOM has it: no <thead>,
 * the header row is the first row of <td>s, Europe's row is one cell short (a reader must
 * pad it), and "Rest of world" has one cell spanning Standard and Express.
 */
export const SHIPPING_RATES = {
  caption: 'Shipping rates',
  rows: [
    [{ text: 'Destination' }, { text: 'Standard' }, { text: 'Express' }, { text: 'Delivery' }],
    [
      { text: 'United States' },
      { text: '$4.99' },
      { text: '$14.99' },
      { text: '2–5 business days' },
    ],
    [{ text: 'Canada' }, { text: '$9.99' }, { text: '$24.99' }, { text: '4–8 business days' }],
    [{ text: 'Europe' }, { text: '$14.99' }, { text: '$34.99' }],
    [
      { text: 'Rest of world' },
      { text: 'Free on orders over $150', colSpan: 2 },
      { text: '7–21 business days' },
    ],
  ] as readonly (readonly TableCell[])[],
} as const;

/**
 * The JSON Schema extraction tests ask for when collecting the catalogue's cards: a list of
 * products with a name, a numeric price and a numeric rating.
 */
export const PRODUCT_LIST_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      price: { type: 'number' },
      rating: { type: 'number' },
    },
    required: ['name', 'price', 'rating'],
  },
} as const;
