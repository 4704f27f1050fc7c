// HTML pages for extraction tests, served over loopback by the tests: product cards the way a
// shop renders them (prices with thousands separators, ratings as "4.5 out of 5"), a long
// price table, and a table without <thead>. Deterministic, so tests know the ground truth.
export interface TestProduct {
  name: string;
  price: number;
  rating: number;
  stock: 'In stock' | 'Low stock' | 'Out of stock';
}

const ADJECTIVES = [
  'Classic',
  'Modern',
  'Rustic',
  'Compact',
  'Deluxe',
  'Vintage',
  'Sleek',
  'Sturdy',
];
const MATERIALS = ['Oak', 'Brass', 'Linen', 'Steel', 'Walnut', 'Ceramic', 'Bamboo', 'Leather'];
const KINDS = ['Chair', 'Desk Lamp', 'Bookshelf', 'Rug', 'Side Table', 'Mirror', 'Vase', 'Stool'];
const STOCK = ['In stock', 'Low stock', 'Out of stock'] as const;

/** Product `n` (0-based): a unique name, a price from $8 to ~$1,800, a rating 1.0–5.0. */
export function testProduct(n: number): TestProduct {
  const name =
    `${ADJECTIVES[n % 8]} ${MATERIALS[Math.floor(n / 8) % 8]} ${KINDS[Math.floor(n / 64) % 8]} ${Math.floor(n / 512) || ''}`.trim();
  return {
    name,
    price: Math.round((8 + ((n * 7919) % 179_000) / 100) * 100) / 100,
    rating: Math.round((1 + ((n * 37) % 41) / 10) * 10) / 10,
    stock: STOCK[n % 3] as TestProduct['stock'],
  };
}

export const formatPrice = (price: number): string =>
  `$${price.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function productCard(product: TestProduct, sku: string): string {
  return `<article class="product-card" data-sku="${sku}">
  <h3 class="product-name">${escape(product.name)}</h3>
  <p><span class="price">${formatPrice(product.price)}</span> · <span class="rating">${product.rating.toFixed(1)} out of 5</span></p>
  <p><span class="stock">${product.stock}</span></p>
  <button type="button">Add to cart</button>
</article>`;
}

function page(title: string, main: string): string {
  return `<!doctype html><html><head><title>${title}</title><script>window.tracking = 1;</script></head>
<body><nav><a href="/">Home</a> <a href="/catalog/">Catalog</a></nav>
<main><h1>${title}</h1>${main}</main>
<footer>© Test shop. Free shipping over $50.</footer></body></html>`;
}

/** A catalogue page of `count` cards starting at product `first`. */
export function catalogPageHtml(first: number, count: number, pageNumber: number): string {
  const cards = Array.from({ length: count }, (_, i) =>
    productCard(testProduct(first + i), `P-${1001 + first + i}`),
  ).join('\n');
  return page(
    `Catalog, page ${pageNumber}`,
    `<section id="products"><h2>Products</h2><div class="grid">${cards}</div></section>
<p><a href="?page=${pageNumber + 1}">Next page</a></p>`,
  );
}

/** A price table of `rows` rows (SKU, Product, Price) with a proper header. */
export function priceTableHtml(rows: number, offset = 0): string {
  const body = Array.from({ length: rows }, (_, i) => {
    const p = testProduct(offset + i);
    return `<tr><td>Q-${String(offset + i + 1).padStart(4, '0')}</td><td>${escape(p.name)}</td><td>${formatPrice(p.price)}</td></tr>`;
  }).join('\n');
  return page(
    'Price list',
    `<table id="prices"><caption>Price list</caption><thead><tr><th>SKU</th><th>Product</th><th>Price</th></tr></thead><tbody>${body}</tbody></table>`,
  );
}

/** An array-of-objects schema over the given product fields, every one required. */
export function productListSchema(
  fields: ('name' | 'price' | 'rating')[] = ['name', 'price', 'rating'],
): Record<string, unknown> {
  const types = { name: 'string', price: 'number', rating: 'number' } as const;
  return {
    type: 'array',
    items: {
      type: 'object',
      properties: Object.fromEntries(fields.map((field) => [field, { type: types[field] }])),
      required: fields,
    },
  };
}
