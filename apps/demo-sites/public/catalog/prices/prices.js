// Renders the 500-row price list from the demo API in one go: long enough that an extractor
// must chunk it, plain enough (one <thead>, one row per item) that every row is checkable.

const rows = document.getElementById('price-rows');
const summary = document.getElementById('price-summary');
const amount = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

function cell(content, className) {
  const td = document.createElement('td');
  td.textContent = content;
  if (className) td.className = className;
  return td;
}

function row(item) {
  const tr = document.createElement('tr');
  tr.dataset.sku = item.sku;
  tr.append(
    cell(item.sku),
    cell(item.product),
    cell(amount.format(item.price), 'amount'),
    cell(item.currency),
  );
  return tr;
}

async function load() {
  try {
    const response = await fetch('/api/catalog/prices');
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const list = await response.json();
    rows.replaceChildren(...list.rows.map(row));
    summary.textContent = `${list.rows.length} items`;
  } catch (error) {
    summary.textContent = `Sorry, the price list could not be loaded: ${error.message}`;
  } finally {
    rows.setAttribute('aria-busy', 'false');
  }
}

load();
