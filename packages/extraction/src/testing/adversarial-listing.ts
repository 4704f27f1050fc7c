// Listing pages (product cards) for the adversarial replay suite: page 1 is what the strategy
// learns from, pages 2..n carry the scenario's variation. Every card's text is recorded
// (ShownItem) so the scripted model can find it in its prompt, and ads and other entities are
// recorded as decoys, which the ground truth leaves out.
import {
  adNameOf,
  atLeastPages,
  between,
  escapeHtml,
  formatLocalePrice,
  LISTING_SCHEMA,
  LOCALES,
  nameOf,
  ORIGIN,
  pageShell,
  priceParts,
  prng,
  VARIATIONS,
  type AdversarialScenario,
  type GeneratedPage,
  type Item,
  type PriceLocale,
  type Rng,
  type ScenarioParams,
  type ShownItem,
} from './adversarial-pages';

interface Card {
  name: string;
  cents: number;
  whole: boolean;
  rating: number | null;
  ad: boolean;
  badge: string | null;
}

/** How a page renders its cards. */
interface Style {
  locale: PriceLocale;
  markup: 'classed' | 'bare';
  /** Prices as `<span>219</span><sup>.99</sup>`. */
  split: boolean;
  wrapper: 'none' | 'cell' | 'card-body' | 'grid';
  /** One more element around a bare name (and its badge). */
  nameWrapper: boolean;
}

function priceHtml(card: Card, style: Style): string {
  const p = priceParts(card.cents, style.locale, card.whole);
  if (!style.split) return escapeHtml(`${p.prefix}${p.integer}${p.fraction}${p.suffix}`);
  const fraction = p.fraction ? `<sup>${escapeHtml(p.fraction)}</sup>` : '';
  return `${escapeHtml(p.prefix)}<span>${escapeHtml(p.integer)}</span>${fraction}${escapeHtml(p.suffix)}`;
}

const ratingText = (rating: number) => `${rating.toFixed(1)} out of 5`;

function classedCard(card: Card, style: Style): string {
  const rating =
    card.rating === null ? '' : ` · <span class="rating">${ratingText(card.rating)}</span>`;
  const inner = `${card.ad ? '<span class="sponsored">Sponsored</span>' : ''}${card.badge ? `<span class="badge">${card.badge}</span>` : ''}
  <h3 class="product-name">${escapeHtml(card.name)}</h3>
  <p><span class="price">${priceHtml(card, style)}</span>${rating}</p>
  <button type="button">Add to cart</button>`;
  const body = style.wrapper === 'card-body' ? `<div class="card-body">${inner}</div>` : inner;
  return `<article class="product-card">${body}</article>`;
}

function bareCard(card: Card, style: Style): string {
  const rating =
    card.rating === null ? '' : ` <span class="rating">${ratingText(card.rating)}</span>`;
  const name = `<span>${escapeHtml(card.name)}</span>`;
  const badged = card.badge ? `<span>${card.badge}</span> ${name}` : name;
  const nameHtml = style.nameWrapper ? `<div>${badged}</div>` : badged;
  const inner = `${card.ad ? '<div><span>Sponsored</span></div>' : ''}<div>${nameHtml}</div>
  <div><span class="price">${priceHtml(card, style)}</span>${rating}</div>`;
  const body = style.wrapper === 'card-body' ? `<div class="card-body">${inner}</div>` : inner;
  return `<div class="item">${body}</div>`;
}

function cardHtml(card: Card, style: Style): string {
  const html = style.markup === 'classed' ? classedCard(card, style) : bareCard(card, style);
  return style.wrapper === 'cell' ? `<div class="cell">${html}</div>` : html;
}

function shownOf(card: Card, style: Style): ShownItem {
  const display: Record<string, string> = {
    name: card.name,
    price: formatLocalePrice(card.cents, style.locale, card.whole),
  };
  if (card.rating !== null) display.rating = ratingText(card.rating);
  if (card.ad) return { key: card.name, display, item: null };
  const item: Item = { name: card.name, price: card.cents / 100 };
  if (card.rating !== null) item.rating = card.rating;
  return { key: card.name, display, item };
}

function listingHtml(cards: Card[], style: Style, title: string, next: string): string {
  const grid = cards.map((card) => cardHtml(card, style)).join('\n');
  const wrapped = style.wrapper === 'grid' ? `<div class="row"><div>${grid}</div></div>` : grid;
  return pageShell(
    style.locale,
    title,
    `<section id="products"><h2>Products</h2><div class="grid">${wrapped}</div></section>
<p><a href="${next}">Next page</a></p>`,
  );
}

/** A price in cents: mostly under 1,000 with some over, whole amounts when `whole`. */
function drawCents(rng: Rng, whole: boolean, large: boolean): number {
  const integer = large || rng() < 0.35 ? between(rng, 1000, 9999) : between(rng, 1, 999);
  return integer * 100 + (whole ? 0 : between(rng, 1, 99));
}

const otherMarkup = (markup: Style['markup']): Style['markup'] =>
  markup === 'classed' ? 'bare' : 'classed';

/** What page `index` of the scenario changes (index 0 is the learning page). */
function pageStyle(params: ScenarioParams, index: number, wrapper: Style['wrapper']): Style {
  const { kind } = params;
  const later = index > 0;
  const other =
    params.otherLocale === params.locale
      ? (LOCALES[(LOCALES.indexOf(params.locale) + 1) % LOCALES.length] as PriceLocale)
      : params.otherLocale;
  return {
    locale: kind === 'locale-switch' && later ? other : params.locale,
    markup:
      kind === 'badge'
        ? 'classed'
        : kind === 'badge-bare-name'
          ? 'bare'
          : kind === 'two-layout' && index % 2 === 1
            ? otherMarkup(params.markup)
            : params.markup,
    split: kind === 'split-span',
    wrapper: kind === 'wrapper' && later ? wrapper : 'none',
    nameWrapper: kind === 'badge-bare-name' && later,
  };
}

/** At least one of `count` positions, each with probability `p`. */
function someOf(rng: Rng, count: number, p: number): Set<number> {
  const chosen = new Set<number>();
  for (let i = 0; i < count; i++) if (rng() < p) chosen.add(i);
  if (chosen.size === 0) chosen.add(between(rng, 0, count - 1));
  return chosen;
}

function productCards(
  params: ScenarioParams,
  rng: Rng,
  index: number,
  count: number,
  names: () => string,
): Card[] {
  const { kind } = params;
  const later = index > 0;
  const whole = (kind === 'split-span' && !later) || (kind === 'locale-whole' && later);
  const badged = later && (kind === 'badge' || kind === 'badge-bare-name');
  const badges = badged ? someOf(rng, count, 0.5) : new Set<number>();
  const unrated = later && kind === 'missing-optional' ? someOf(rng, count, 0.4) : new Set();
  const cards: Card[] = Array.from({ length: count }, (_, i) => ({
    name: names(),
    cents: drawCents(rng, whole, kind === 'locale-whole' && later),
    whole,
    rating: unrated.has(i) ? null : between(rng, 10, 50) / 10,
    ad: false,
    badge: badges.has(i) ? (rng() < 0.5 ? 'Bestseller' : 'New') : null,
  }));
  const withAds = kind === 'ads' || (kind === 'ads-late' && later);
  const ads = withAds ? between(rng, 1, 2) : 0;
  for (let a = 0; a < ads; a++) {
    const ad: Card = {
      name: adNameOf(between(rng, 0, 19)),
      cents: drawCents(rng, false, false),
      whole: false,
      rating: between(rng, 30, 50) / 10,
      ad: true,
      badge: null,
    };
    if (!cards.some((card) => card.name === ad.name)) {
      cards.splice(between(rng, 0, cards.length), 0, ad);
    }
  }
  return cards;
}

/** Orders drawn like products: same card markup, another entity. */
function orderCards(rng: Rng, count: number): Card[] {
  return Array.from({ length: count }, () => ({
    name: `Order #${between(rng, 10_000, 99_999)}`,
    cents: drawCents(rng, false, false),
    whole: false,
    rating: null,
    ad: true,
    badge: null,
  }));
}

const SECTIONS = ['shoes', 'hats', 'socks', 'bags', 'scarves', 'belts'];

/**
 * sibling-section: sections of one shop in one layout (/shoes/list, /hats/list, …), then the
 * customer's orders in that layout under the same path shape (/orders/list), always last.
 */
function siblingPage(
  rng: Rng,
  sections: readonly string[],
  index: number,
  last: boolean,
): { path: string; title: string; foreign: boolean } {
  if (last) return { path: '/orders/list', title: 'Your orders', foreign: true };
  const section = sections[index % sections.length] as string;
  const paged = index >= sections.length || (index > 1 && rng() < 0.3);
  return {
    path: `/${section}/list${paged ? `?page=${between(rng, 2, 5)}` : ''}`,
    title: `${section[0]?.toUpperCase()}${section.slice(1)} catalog`,
    foreign: false,
  };
}

/** Two to four sections, in a drawn order. */
function drawSections(rng: Rng): string[] {
  const pool = [...SECTIONS];
  const drawn: string[] = [];
  const size = between(rng, 2, 4);
  while (drawn.length < size)
    drawn.push(pool.splice(between(rng, 0, pool.length - 1), 1)[0] ?? 'x');
  return drawn;
}

export function listingScenario(params: ScenarioParams): AdversarialScenario {
  const rng = prng(params.detailSeed);
  const wrappers = ['cell', 'card-body', 'grid'] as const;
  const wrapper = wrappers[between(rng, 0, 2)] ?? 'cell';
  let next = params.offset;
  const names = () => nameOf(next++ % 512);
  const digit = between(rng, 1, 9);
  const sequence = params.kind === 'two-layout' || params.kind === 'sibling-section';
  const counts = sequence ? atLeastPages(params.counts, 4) : params.counts;
  const sections = params.kind === 'sibling-section' ? drawSections(rng) : [];
  const pages = counts.map((count, index): GeneratedPage => {
    const style = pageStyle(params, index, wrapper);
    const sibling =
      params.kind === 'sibling-section'
        ? siblingPage(rng, sections, index, index === counts.length - 1)
        : null;
    const foreign = (params.kind === 'digit-path' && index > 0) || sibling?.foreign === true;
    const cards = foreign ? orderCards(rng, count) : productCards(params, rng, index, count, names);
    const shown = cards.map((card) => shownOf(card, style));
    const path = sibling
      ? sibling.path
      : params.kind === 'path-pagination'
        ? `/${params.segment}/page/${index + 1}`
        : params.kind !== 'digit-path'
          ? `/${params.segment}/list?page=${index + 1}`
          : index === 0
            ? `/${params.segment}${digit}/list`
            : `/${['orders', 'archive', 'account'][index % 3]}${between(rng, 1, 9)}/list`;
    const title = sibling ? sibling.title : foreign ? 'Your orders' : `Catalog, page ${index + 1}`;
    return {
      url: `${ORIGIN}${path}`,
      html: listingHtml(cards, style, title, `?page=${index + 2}`),
      truth: shown.flatMap((s) => (s.item ? [s.item] : [])),
      shown,
    };
  });
  return {
    kind: params.kind,
    label: VARIATIONS[params.kind].label,
    locale: params.locale,
    markup: pageStyle(params, 0, wrapper).markup,
    schema: LISTING_SCHEMA,
    query: 'every product with name, price and rating',
    keyField: 'name',
    fields: ['name', 'price', 'rating'],
    pages,
  };
}
