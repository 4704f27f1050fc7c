// Inventory tables for the adversarial replay suite: page 1 teaches a recipe for (SKU, item,
// stock) rows; pages 2..n bring new rows, renamed or swapped or added columns, or a shipments
// table of the same shape under the same URL pattern (whose rows are not inventory at all).
import {
  between,
  escapeHtml,
  INVENTORY_SCHEMA,
  nameOf,
  ORIGIN,
  pageShell,
  prng,
  VARIATIONS,
  type AdversarialScenario,
  type GeneratedPage,
  type Rng,
  type ScenarioParams,
  type ShownItem,
} from './adversarial-pages';

type Field = 'sku' | 'item' | 'stock' | 'extra';

interface Column {
  header: string;
  field: Field;
}

interface Row {
  sku: string;
  item: string;
  stock: number;
  extra: string;
}

const BASE: Column[] = [
  { header: 'SKU', field: 'sku' },
  { header: 'Item', field: 'item' },
  { header: 'Stock', field: 'stock' },
];
const RENAMED: Record<string, string> = { SKU: 'Article no.', Item: 'Product', Stock: 'Qty' };
const SHIPMENT_HEADERS: Record<string, string> = {
  SKU: 'Tracking no.',
  Item: 'Destination',
  Stock: 'Parcels',
};
const CITIES = ['Leipzig', 'Lyon', 'Pune', 'Dallas', 'Porto', 'Graz', 'Turku', 'Cork'];
const LETTERS = 'ABCDEFGHJK';

function columnsFor(params: ScenarioParams, index: number, inserted: number): Column[] {
  if (index === 0) return BASE;
  switch (params.kind) {
    case 'table-renamed':
      return BASE.map((c) => ({ ...c, header: RENAMED[c.header] ?? c.header }));
    case 'table-swapped':
      return [BASE[1], BASE[0], BASE[2]] as Column[];
    case 'table-added': {
      const columns = [...BASE];
      columns.splice(inserted, 0, { header: 'Location', field: 'extra' });
      return columns;
    }
    case 'table-other-entity':
      return BASE.map((c) => ({ ...c, header: SHIPMENT_HEADERS[c.header] ?? c.header }));
    default:
      return BASE;
  }
}

function cellText(row: Row, field: Field): string {
  return field === 'stock' ? String(row.stock) : row[field];
}

function tableHtml(columns: Column[], rows: Row[], markup: 'classed' | 'bare'): string {
  const head = `<tr>${columns.map((c) => `<th>${escapeHtml(c.header)}</th>`).join('')}</tr>`;
  const body = rows
    .map(
      (row) =>
        `<tr>${columns.map((c) => `<td>${escapeHtml(cellText(row, c.field))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return markup === 'classed'
    ? `<table class="inventory"><thead>${head}</thead><tbody>${body}</tbody></table>`
    : `<table><tbody>${head}\n${body}</tbody></table>`;
}

function inventoryRows(rng: Rng, count: number, serial: () => number): Row[] {
  return Array.from({ length: count }, () => {
    const n = serial();
    return {
      sku: `${LETTERS[n % LETTERS.length]}-${String(1000 + n)}`,
      item: nameOf(n % 512),
      stock: between(rng, 0, 999),
      extra: `Aisle ${between(rng, 1, 40)}`,
    };
  });
}

/** Shipments drawn in the inventory's shape: a code, a name, a count. */
function shipmentRows(rng: Rng, count: number): Row[] {
  return Array.from({ length: count }, () => ({
    sku: `TRK-${between(rng, 100_000, 999_999)}`,
    item: CITIES[between(rng, 0, CITIES.length - 1)] ?? 'Graz',
    stock: between(rng, 1, 12),
    extra: '',
  }));
}

export function tableScenario(params: ScenarioParams): AdversarialScenario {
  const rng = prng(params.detailSeed);
  const inserted = between(rng, 0, 2);
  let next = params.offset;
  const serial = () => next++;
  const pages = params.counts.map((count, index): GeneratedPage => {
    const foreign = params.kind === 'table-other-entity' && index > 0;
    const rows = foreign ? shipmentRows(rng, count) : inventoryRows(rng, count, serial);
    const shown: ShownItem[] = rows.map((row) => ({
      key: row.sku,
      display: { sku: row.sku, item: row.item, stock: String(row.stock) },
      item: foreign ? null : { sku: row.sku, item: row.item, stock: row.stock },
    }));
    const path = foreign ? '/inventory/?view=shipments' : `/inventory/?page=${index + 1}`;
    const title = foreign ? 'Shipments' : `Inventory, page ${index + 1}`;
    const columns = columnsFor(params, index, inserted);
    return {
      url: `${ORIGIN}${path}`,
      html: pageShell(params.locale, title, tableHtml(columns, rows, params.markup)),
      truth: shown.flatMap((s) => (s.item ? [s.item] : [])),
      shown,
    };
  });
  return {
    kind: params.kind,
    label: VARIATIONS[params.kind].label,
    locale: params.locale,
    markup: params.markup,
    schema: INVENTORY_SCHEMA,
    query: 'every inventory row with sku, item and stock',
    keyField: 'sku',
    fields: ['sku', 'item', 'stock'],
    pages,
  };
}
