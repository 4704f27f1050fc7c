// Pages for the replay tests (imported by *.test.ts only): product listings as cards and as a
// table, and product detail pages, generated from deterministic product lists so that a
// second page of the "same site" has other products in the same markup.

export interface Product {
  sku: string;
  name: string;
  price: number;
  /** null: the card shows no rating. */
  rating: number | null;
}

const ADJECTIVES = [
  'Compact',
  'Deluxe',
  'Ergonomic',
  'Portable',
  'Silent',
  'Smart',
  'Vintage',
  'Wireless',
];
const NOUNS = [
  'Blender',
  'Chair',
  'Desk Lamp',
  'Headphones',
  'Kettle',
  'Monitor',
  'Router',
  'Speaker',
  'Toaster',
];

/** Product number `i`; prices reach the thousands ("$1,249.00"). */
export function productAt(i: number): Product {
  return {
    sku: `P-${i}`,
    name: `${ADJECTIVES[i % ADJECTIVES.length]} ${NOUNS[(i * 7) % NOUNS.length]} ${100 + i}`,
    price: (((i * 7919) % 200_000) + 999) / 100,
    rating: ((i * 7) % 9) * 0.5 + 1,
  };
}

/** `count` products starting at number `from`. */
export function products(count: number, from: number): Product[] {
  return Array.from({ length: count }, (_, k) => productAt(from + k));
}

export const money = (price: number): string =>
  `$${price.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export interface CardOptions {
  /** Classes of each card (default "product-card"). */
  cardClass?: (product: Product, i: number) => string;
  /** Tag of each card (default "article"). */
  cardTag?: string;
  /** Cards with no content at all (loading placeholders), appended to the grid. */
  placeholders?: number;
}

function card(product: Product, i: number, options: CardOptions): string {
  const tag = options.cardTag ?? 'article';
  const cls = options.cardClass?.(product, i) ?? 'product-card';
  const slug = product.sku.toLowerCase();
  const rating =
    product.rating === null ? '' : `<span class="rating">${product.rating} out of 5</span>`;
  const badge = i % 5 === 0 ? '<span class="badge">Sale</span>' : '';
  return `
    <${tag} class="${cls}" data-sku="${product.sku}">
      <a class="thumb" href="/products/${slug}"><img src="/img/${slug}.jpg" alt="${product.name}"></a>
      <h3 class="product-name"><a href="/products/${slug}">${product.name}</a></h3>
      <div class="meta">${badge}
        <span class="price">${money(product.price)}</span>
        ${rating}
      </div>
      <button class="add-to-cart" type="button">Add to cart</button>
    </${tag}>`;
}

/** A listing: header, a grid of cards, a "recommended" sidebar of three more cards, footer. */
export function cardsPage(list: readonly Product[], options: CardOptions = {}): string {
  const recommended = products(3, 9000).map((p, i) => card(p, i + 1, {}));
  const placeholders = Array.from(
    { length: options.placeholders ?? 0 },
    () => '<article class="product-card"></article>',
  );
  return `<!doctype html><html><head><title>Shop</title><style>.x{}</style></head><body>
    <header><nav><a href="/">Home</a> <a href="/deals">Deals</a></nav><h1>All products</h1></header>
    <main><p class="count">${list.length} results</p>
      <div class="grid">${list.map((p, i) => card(p, i, options)).join('')}${placeholders.join('')}</div>
    </main>
    <aside class="recommended"><h2>Recommended</h2>${recommended.join('')}</aside>
    <footer>© Shop</footer></body></html>`;
}

/** A catalog table with a header row: SKU, Product, Price. */
export function tablePage(list: readonly Product[]): string {
  const rows = list.map(
    (p) => `<tr><td>${p.sku}</td><td>${p.name}</td><td>${money(p.price)}</td></tr>`,
  );
  return `<!doctype html><html><body><h1>Catalog</h1>
    <table class="catalog"><thead><tr><th>SKU</th><th>Product</th><th>Price</th></tr></thead>
    <tbody>${rows.join('\n')}</tbody></table></body></html>`;
}

/** A product detail page; its name is also in the breadcrumb, and a related card shares its price. */
export function detailPage(product: Product, stock: number): string {
  const related = products(3, 5000).map((p, i) => ({
    ...p,
    price: i === 1 ? product.price : p.price,
  }));
  return `<!doctype html><html><body>
    <nav class="breadcrumb"><a href="/">Home</a> › <a href="/c/all">All</a> › <span>${product.name}</span></nav>
    <main class="product-detail">
      <h1 class="product-title">${product.name}</h1>
      <div class="buy-box"><span class="price">${money(product.price)}</span>
        <p class="stock">${stock} in stock</p></div>
      <p class="description">A fine product. Ships in 2 days.</p>
    </main>
    <section class="related"><h2>Related</h2>${related.map((p, i) => card(p, i + 1, {})).join('')}</section>
  </body></html>`;
}

export const CARD_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      sku: { type: 'string' },
      name: { type: 'string' },
      price: { type: 'number' },
      rating: { type: ['number', 'null'] },
    },
    required: ['sku', 'name', 'price'],
  },
};

export const TABLE_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: { sku: { type: 'string' }, product: { type: 'string' }, price: { type: 'number' } },
    required: ['sku', 'product', 'price'],
  },
};

export const DETAIL_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' }, stock: { type: 'integer' } },
  required: ['name', 'price', 'stock'],
};

/** What the model would extract from a table page. */
export const tableData = (list: readonly Product[]) =>
  list.map(({ sku, name, price }) => ({ sku, product: name, price }));
