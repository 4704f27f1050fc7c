// Renders one page of the catalogue from the demo API (`?page=n`, default 1): 40 product
// cards, pagination links, and on page 1 the shipping table. Pages are real navigations
// (links), as on a server-rendered shop, so an agent pages with click or navigate alike.

const grid = document.getElementById('product-grid');
const summary = document.getElementById('results-summary');
const pagination = document.getElementById('pagination');
const cartStatus = document.getElementById('cart-status');
const shippingTemplate = document.getElementById('shipping-template');

const requested = new URLSearchParams(location.search).get('page') ?? '1';
const page = /^\d{1,3}$/.test(requested) ? Number(requested) : 1;
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
let cartItems = 0;

function text(tag, content, className) {
  const node = document.createElement(tag);
  node.textContent = content;
  if (className) node.className = className;
  return node;
}

function card(product, featured) {
  const item = document.createElement('li');
  const article = document.createElement('article');
  article.className = featured ? 'product-card featured' : 'product-card';
  article.dataset.sku = product.sku;
  const headingId = `product-${product.sku}-name`;
  article.setAttribute('aria-labelledby', headingId);

  if (featured) article.append(text('span', 'Featured', 'badge'));
  const heading = text('h3', product.name, 'product-name');
  heading.id = headingId;
  const price = text('p', '');
  price.append(text('span', money.format(product.price), 'price'));
  const rating = text('p', 'Rating: ', 'rating-line');
  rating.append(text('span', `${product.rating.toFixed(1)} out of 5`, 'rating'));
  const stock = text('p', '');
  const stockSpan = text('span', product.stock, 'stock');
  stockSpan.dataset.stock = product.stock;
  stock.append(stockSpan);

  const add = text('button', 'Add to cart');
  add.type = 'button';
  add.dataset.sku = product.sku;
  add.disabled = product.stock === 'Out of stock';

  article.append(heading, text('p', `SKU: ${product.sku}`, 'sku'), price, rating, stock, add);
  item.append(article);
  return item;
}

function pageLink(target, label, rel) {
  const link = text('a', label);
  link.href = `/catalog/?page=${target}`;
  link.rel = rel;
  return link;
}

function renderPagination(current, pageCount) {
  const parts = [];
  if (current > 1) parts.push(pageLink(current - 1, 'Previous page', 'prev'));
  const position = text('span', `Page ${current} of ${pageCount}`);
  position.setAttribute('aria-current', 'page');
  parts.push(position);
  if (current < pageCount) parts.push(pageLink(current + 1, 'Next page', 'next'));
  // The shop has added products since (set by the routine tests): its last page now leads on,
  // by a link named otherwise and marked as nothing.
  else if (window.localStorage.getItem('catalog:grown') === 'yes')
    parts.push(pageLink(current + 1, 'More products', ''));
  else parts.push(text('span', 'Last page', 'hint'));
  pagination.replaceChildren(...parts);
}

// The cart lives in the page only: enough to make the buttons do what they say.
grid.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  if (!button) return;
  const name = button.closest('.product-card')?.querySelector('.product-name')?.textContent;
  cartItems += 1;
  const count = cartItems === 1 ? '1 item' : `${cartItems} items`;
  cartStatus.textContent = `Added ${name} to your cart (${count}).`;
});

async function load() {
  try {
    const response = await fetch(`/api/catalog?page=${page}`);
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const catalog = await response.json();
    const featured = new Set(catalog.featuredSkus);
    grid.replaceChildren(
      ...catalog.products.map((product) => card(product, featured.has(product.sku))),
    );
    summary.textContent = `Page ${catalog.page} of ${catalog.pageCount} · ${catalog.products.length} products`;
    document.title = `Home goods – page ${catalog.page} of ${catalog.pageCount} · Hearth & Co.`;
    renderPagination(catalog.page, catalog.pageCount);
    if (catalog.page === 1) pagination.after(shippingTemplate.content.cloneNode(true));
  } catch (error) {
    summary.textContent = `Sorry, the products could not be loaded: ${error.message}`;
  } finally {
    grid.setAttribute('aria-busy', 'false');
  }
}

load();
