// Generated page sequences that probe the replay of learned strategies: a learning page 1 and
// pages 2..n that differ from it the way real sites do (a new locale, split-span prices,
// "Sponsored" look-alikes, badges, extra wrappers, swapped table columns, another entity under
// the same URL pattern). Each sequence carries its ground truth and what each item looks like as
// text, so a scripted model can answer from its prompt alone (adversarial-model.ts) and a runner
// can tell a replay that is right from one that is silently wrong (adversarial-runner.ts).
//
// The fast-check arbitrary draws the parameters that matter for replay (variation, locale,
// markup, page sizes, URL); the per-item details (prices, ratings, which card gets a badge) come
// from a small PRNG seeded by the arbitrary, so one seed reproduces a whole run.
import fc from 'fast-check';

export type VariationLabel = 'benign' | 'hostile';

export interface Variation {
  /**
   * benign: the replay should still be taken (and be right); hostile: the replay must be
   * declined or be exactly right. Silently wrong data is a failure either way.
   */
  label: VariationLabel;
  page: 'listing' | 'table';
  what: string;
}

export const VARIATIONS = {
  pagination: { label: 'benign', page: 'listing', what: 'new items, same layout' },
  wrapper: { label: 'benign', page: 'listing', what: 'extra wrapper divs' },
  badge: { label: 'benign', page: 'listing', what: 'badge before a classed name' },
  'missing-optional': { label: 'benign', page: 'listing', what: 'optional rating missing' },
  'split-span': { label: 'hostile', page: 'listing', what: 'learned whole, later <sup>.99</sup>' },
  'locale-whole': { label: 'hostile', page: 'listing', what: 'learned 1.234,50, later 1.908' },
  'locale-switch': { label: 'hostile', page: 'listing', what: 'later pages in another locale' },
  ads: { label: 'hostile', page: 'listing', what: 'Sponsored look-alikes on every page' },
  'ads-late': { label: 'hostile', page: 'listing', what: 'Sponsored look-alikes after learning' },
  'badge-bare-name': { label: 'hostile', page: 'listing', what: 'badge + wrapper, bare span name' },
  'digit-path': { label: 'hostile', page: 'listing', what: 'orders under /x2/list → /*/list' },
  'path-pagination': { label: 'benign', page: 'listing', what: '/x/page/1, /x/page/2: path pages' },
  'two-layout': { label: 'benign', page: 'listing', what: 'cards and rows alternate: 2 recipes' },
  'sibling-section': {
    label: 'hostile',
    page: 'listing',
    what: '/shoes/list, /hats/list widen to /*/list; then /orders/list',
  },
  'table-pagination': { label: 'benign', page: 'table', what: 'new rows, same columns' },
  'table-renamed': { label: 'benign', page: 'table', what: 'headers renamed, same order' },
  'table-swapped': { label: 'hostile', page: 'table', what: 'SKU and item columns swapped' },
  'table-added': { label: 'hostile', page: 'table', what: 'a column inserted before others' },
  'table-other-entity': { label: 'hostile', page: 'table', what: 'shipments, same shape and URL' },
} as const satisfies Record<string, Variation>;

export type VariationKind = keyof typeof VARIATIONS;
export const VARIATION_KINDS = Object.keys(VARIATIONS) as VariationKind[];

export const LOCALES = ['en', 'de', 'fr', 'en-IN'] as const;
export type PriceLocale = (typeof LOCALES)[number];

export type Item = Record<string, string | number>;

/**
 * One item as the page shows it: `key` is text unique to it, `display` each field's text as it
 * reads on the page. `item` null marks a decoy (an ad, another entity) that is not an answer.
 */
export interface ShownItem {
  key: string;
  display: Record<string, string>;
  item: Item | null;
}

export interface GeneratedPage {
  url: string;
  html: string;
  /** The right answer for the scenario's schema, in document order. */
  truth: Item[];
  /** Every item-like thing on the page, answers and decoys, in document order. */
  shown: ShownItem[];
}

export interface AdversarialScenario {
  kind: VariationKind;
  label: VariationLabel;
  locale: PriceLocale;
  markup: 'classed' | 'bare';
  schema: Record<string, unknown>;
  query: string;
  /** The field that identifies an item (unique on a page); scoring matches items by it. */
  keyField: string;
  fields: string[];
  pages: GeneratedPage[];
}

export const ORIGIN = 'http://shop.test';

export const LISTING_SCHEMA: Record<string, unknown> = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      price: { type: 'number' },
      rating: { type: 'number' },
    },
    required: ['name', 'price'],
  },
};

export const INVENTORY_SCHEMA: Record<string, unknown> = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      sku: { type: 'string' },
      item: { type: 'string' },
      stock: { type: 'integer' },
    },
    required: ['sku', 'item', 'stock'],
  },
};

/**
 * Page counts with at least `pages` pages: the kinds whose point is a sequence (two layouts
 * taking turns, sections widening a pattern) need more pages than the shortest draw.
 */
export const atLeastPages = (counts: readonly number[], pages: number): number[] =>
  Array.from({ length: Math.max(pages, counts.length) }, (_, i) => counts[i % counts.length] ?? 5);

/** A small deterministic PRNG (mulberry32): details follow from the drawn seed. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export type Rng = () => number;
export const between = (rng: Rng, min: number, max: number): number =>
  min + Math.floor(rng() * (max - min + 1));

// ---- text of values ---------------------------------------------------------------------

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

/** Name `n` (0..511): three words, none of which is another name's substring. */
export const nameOf = (n: number): string =>
  `${ADJECTIVES[n % 8]} ${MATERIALS[Math.floor(n / 8) % 8]} ${KINDS[Math.floor(n / 64) % 8]}`;

const AD_BRANDS = ['Acme', 'Nordic', 'Zenith', 'Orbit', 'Helio'];
const AD_THINGS = ['Mattress', 'Blender', 'Headphones', 'Air Fryer'];
export const adNameOf = (n: number): string =>
  `${AD_BRANDS[n % AD_BRANDS.length]} ${AD_THINGS[Math.floor(n / AD_BRANDS.length) % AD_THINGS.length]} Pro`;

interface LocaleFormat {
  lang: string;
  group: string;
  decimal: string;
  prefix: string;
  suffix: string;
  indian?: boolean;
}

const FORMATS: Record<PriceLocale, LocaleFormat> = {
  en: { lang: 'en-US', group: ',', decimal: '.', prefix: '$', suffix: '' },
  de: { lang: 'de-DE', group: '.', decimal: ',', prefix: '', suffix: '\u00a0€' },
  fr: { lang: 'fr-FR', group: '\u202f', decimal: ',', prefix: '', suffix: '\u00a0€' },
  'en-IN': { lang: 'en-IN', group: ',', decimal: '.', prefix: '₹', suffix: '', indian: true },
};

export const langOf = (locale: PriceLocale): string => FORMATS[locale].lang;

function groupDigits(whole: number, format: LocaleFormat): string {
  const digits = String(whole);
  if (digits.length <= 3) return digits;
  const last = digits.slice(-3);
  const rest = digits.slice(0, -3);
  const size = format.indian ? 2 : 3;
  const groups: string[] = [];
  for (let end = rest.length; end > 0; end -= size)
    groups.unshift(rest.slice(Math.max(0, end - size), end));
  return [...groups, last].join(format.group);
}

/** A price of `cents` as the locale writes it; whole amounts without decimals when `whole`. */
export function priceParts(
  cents: number,
  locale: PriceLocale,
  whole: boolean,
): { prefix: string; integer: string; fraction: string; suffix: string } {
  const format = FORMATS[locale];
  const fraction = whole ? '' : `${format.decimal}${String(cents % 100).padStart(2, '0')}`;
  return {
    prefix: format.prefix,
    integer: groupDigits(Math.floor(cents / 100), format),
    fraction,
    suffix: format.suffix,
  };
}

export function formatLocalePrice(cents: number, locale: PriceLocale, whole = false): string {
  const p = priceParts(cents, locale, whole);
  return `${p.prefix}${p.integer}${p.fraction}${p.suffix}`;
}

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function pageShell(locale: PriceLocale, title: string, main: string): string {
  return `<!doctype html><html lang="${langOf(locale)}"><head><title>${escapeHtml(title)}</title></head>
<body><nav><a href="/">Home</a> <a href="/help">Help</a></nav>
<main><h1>${escapeHtml(title)}</h1>${main}</main>
<footer>© Generated shop. Prices include VAT.</footer></body></html>`;
}

// ---- the arbitrary ----------------------------------------------------------------------

export interface ScenarioParams {
  kind: VariationKind;
  locale: PriceLocale;
  otherLocale: PriceLocale;
  markup: 'classed' | 'bare';
  /** Items on page 1, 2, ..., n (n = 2..4). */
  counts: number[];
  /** Where in the name space this scenario's items start. */
  offset: number;
  segment: string;
  detailSeed: number;
}

const SEGMENTS = ['katalog', 'catalog', 'shop', 'products', 'store'];

export function scenarioParams(
  kinds: readonly VariationKind[] = VARIATION_KINDS,
): fc.Arbitrary<ScenarioParams> {
  return fc.record({
    kind: fc.constantFrom(...kinds),
    locale: fc.constantFrom(...LOCALES),
    otherLocale: fc.constantFrom(...LOCALES),
    markup: fc.constantFrom('classed' as const, 'bare' as const),
    counts: fc.array(fc.integer({ min: 3, max: 9 }), { minLength: 2, maxLength: 4 }),
    offset: fc.nat({ max: 511 }),
    segment: fc.constantFrom(...SEGMENTS),
    detailSeed: fc.integer(),
  });
}
