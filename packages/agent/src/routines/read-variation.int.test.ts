// Generated variation of the catalogue between a routine's first run and its rerun (the team's
// rule: every feature that reads outside input gets fast-check variation, fixed seed in CI).
// The first run extracts a generated catalogue page; the rerun replays the saved extraction on a
// page that changed since: items gone, added, reordered, renamed or repriced, fewer or none,
// cards wrapped or reclassed, an advert or a "Recommended" strip beside them, the pager moved,
// renamed or gone. The model may have scoped its read to the list (cssSelector): its replays then
// send that part of the page only, with the page's links outside it at the last read. The list's
// pages are named by their number, on page 1 too (&page=1) or from page 2 on (?cat=shoes, then
// &page=2, or &page=2&per=24 when the pager writes the list's settings too), by a cursor
// (&after=t3_…), or by an id that counts down with an item count beside it (&next=…&n=31), and
// the rerun reads the category the routine was learned on or another
// (?cat=boots). What users rely on: a routine that says it is done stored exactly the items of
// the page it read (never the first run's, never a look-alike); otherwise it handed over to the
// agent.
// The expected items come from the generator's own data, never from the code under test.
import type { Routine, SemanticNodeV3 } from '@tandem/contracts';
import { ExtractionService } from '@tandem/extraction';
import {
  answerKnownItems,
  formatPrice,
  productCard,
  productListSchema,
  scriptedExtractionLlm,
  sentHtml,
  sentLinks,
  testProduct,
  type ShownItem,
} from '@tandem/extraction/testing';
import { createLibsqlStore } from '@tandem/store';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extraction } from '../nodes/extraction/node';
import { routeAfterRoutineStep } from '../routes';
import type { InteractStateType } from '../state';
import { nextPageClick, savedRoutine } from '../testing/routine-runs';
import { applyUpdate, nodeDeps, pageWith, stateWith } from '../testing/state';
import { startRun } from './run';
import { routineStep } from './step-node';
import type { RoutineTraceEntry } from './trace';

/**
 * The category the routine was learned on, and another of the same kind a rerun may read (in
 * the query: a page like the learned one, routines/replay.ts likeUrl).
 */
const LISTS = { learned: 'shoes', other: 'boots' };
type List = keyof typeof LISTS;
/**
 * How the shop names a list's pages: the page number on every page, or from page 2 on (most
 * real lists), with the list's settings too from page 2 on (&page=2&per=24); a cursor
 * (?after=t3_…); or an id that counts down with an item count beside it (Hacker News:
 * ?next=47049744&n=31). All but the first name page 1 by the list alone.
 */
type Paging = 'numbered' | 'bare' | 'settings' | 'cursor' | 'counted';
const PAGINGS: Paging[] = ['numbered', 'bare', 'settings', 'cursor', 'counted'];
/** Page `n`'s own part of the query, as its pager links it (none for a bare page 1). */
function pageParams(list: List, n: number, paging: Paging): string {
  if (paging === 'numbered') return `&page=${n}`;
  if (n === 1) return '';
  const salt = list === 'learned' ? 7919 : 104_729;
  if (paging === 'cursor') return `&after=t3_${(n * salt).toString(36)}`;
  if (paging === 'counted') return `&next=${47_049_744 - n * salt}&n=${(n - 1) * 30 + 1}`;
  return paging === 'settings' ? `&page=${n}&per=24` : `&page=${n}`;
}
const pageQuery = (list: List, n: number, paging: Paging) =>
  `?cat=${LISTS[list]}${pageParams(list, n, paging)}`;
const pageUrl = (list: List, n: number, paging: Paging) =>
  `https://shop.test/catalog/${pageQuery(list, n, paging)}`;
const GOAL = 'Extract every product as JSON with name and price';
const TOKENS = { input: 0, output: 0, saved: 0, calls: 0, costMicroUsd: 0 };
const SEED = 33;
const RUNS = 100;
/** The list's own element: what a scoped read sends (the pager and strips sit outside it). */
const SCOPE = '#products';

interface Product {
  name: string;
  price: number;
  sku: string;
}
type Layout = 'plain' | 'wrapped' | 'reclassed';
/** Where the Next page link is; `renamed`: there, but the shop calls it otherwise now. */
type Pager = 'bottom' | 'top' | 'renamed' | 'none';
/** A "Recommended" strip after the grid (or above it): its own markup, or the grid's cards. */
type Strip = 'list' | 'cards' | 'cards-above' | null;
interface CatalogPage {
  products: Product[];
  layout: Layout;
  /** Where an advert tile sits among the cards (an index into them), or null. */
  ad: number | null;
  recommended: Strip;
  pager: Pager;
}

// Look-alikes: priced and headed like a product, but no item of the catalogue. Their names
// share no text with a product's (products are "Adjective Material Kind").
const AD = { name: 'Gift Card Bundle', price: 25 };
const RECOMMENDED = [
  { name: 'Premium Membership', price: 49 },
  { name: 'Extended Warranty', price: 19.99 },
];

const product = (n: number): Product => ({
  name: testProduct(n).name,
  price: testProduct(n).price,
  sku: `P-${1001 + n}`,
});

/** A card in another markup: the shop renamed its classes and tags. */
function reclassedCard(p: Product): string {
  return `<div class="tile" data-id="${p.sku}">
  <h4 class="title">${p.name}</h4>
  <div class="amount">${formatPrice(p.price)}</div>
  <a href="/p/${p.sku}">Details</a>
</div>`;
}

function cardOf(p: Product, layout: Layout): string {
  // Rating and stock are shown as the helper renders them; the schema reads name and price.
  const shown = { ...testProduct(0), name: p.name, price: p.price };
  if (layout === 'reclassed') return reclassedCard(p);
  const card = productCard(shown, p.sku);
  return layout === 'wrapped' ? `<div class="cell"><div class="inner">${card}</div></div>` : card;
}

const adTile = `<article class="product-card sponsored" data-sku="AD-1">
  <p class="badge">Sponsored</p>
  <h3 class="product-name">${AD.name}</h3>
  <p><span class="price">${formatPrice(AD.price)}</span></p>
  <button type="button">Learn more</button>
</article>`;

function recommendedStrip(strip: Strip): string {
  if (strip === null) return '';
  const entries = RECOMMENDED.map((r, k) =>
    strip !== 'list'
      ? cardOf({ ...r, sku: `R-${k + 1}` }, 'plain')
      : `<li class="rec"><h4>${r.name}</h4><span class="price">${formatPrice(r.price)}</span></li>`,
  ).join('');
  const list = strip !== 'list' ? `<div class="carousel">${entries}</div>` : `<ul>${entries}</ul>`;
  return `<aside class="recommended"><h2>Recommended for you</h2>${list}</aside>`;
}

/** The pager, leading to page `next`. */
const pagerHtml = (pager: Pager, list: List, next: number, paging: Paging) =>
  pager === 'none'
    ? ''
    : `<p class="pager"><a href="${pageQuery(list, next, paging)}">${pager === 'renamed' ? 'More products' : 'Next page'}</a></p>`;

/** A first run's page: the products in plain cards, a Next page link under them. */
const catalog = (products: Product[]): CatalogPage => ({
  products,
  layout: 'plain',
  ad: null,
  recommended: null,
  pager: 'bottom',
});

/** The page's HTML, as a shop would render it, as page `n` of the list. */
function catalogHtml(page: CatalogPage, n: number, list: List, paging: Paging): string {
  const cards = page.products.map((p) => cardOf(p, page.layout));
  if (page.ad !== null) cards.splice(Math.min(page.ad, cards.length), 0, adTile);
  const grid =
    page.products.length === 0 && page.ad === null
      ? '<p>No products match.</p>'
      : `<div class="grid">${cards.join('\n')}</div>`;
  return `<!doctype html><html><head><title>Catalog, page 1</title></head>
<body><nav><a href="/">Home</a> <a href="/catalog/">Catalog</a></nav>
<main><h1>Catalog, page 1</h1>${page.pager === 'top' ? pagerHtml(page.pager, list, n + 1, paging) : ''}
${page.recommended === 'cards-above' ? recommendedStrip(page.recommended) : ''}
<section id="products"><h2>Products</h2>${grid}</section>
${page.recommended === 'cards-above' ? '' : recommendedStrip(page.recommended)}${page.pager === 'top' ? '' : pagerHtml(page.pager, list, n + 1, paging)}</main>
<footer>© Test shop. Free shipping over $50.</footer></body></html>`;
}

/** The accessibility tree the client would send: the pager link where the page has it. */
function treeOf(page: CatalogPage): SemanticNodeV3[] {
  const next: SemanticNodeV3[] =
    page.pager === 'none'
      ? []
      : [{ i: 'next', r: 'link', n: page.pager === 'renamed' ? 'More products' : 'Next page' }];
  const items = page.products.map((p, k): SemanticNodeV3 => ({
    i: `p${k}`,
    r: 'btn',
    n: 'Add to cart',
  }));
  const nav: SemanticNodeV3[] = [
    { i: 'home', r: 'link', n: 'Home' },
    { i: 'cat', r: 'link', n: 'Catalog' },
  ];
  return page.pager === 'top' ? [...nav, ...next, ...items] : [...nav, ...items, ...next];
}

/** What a careful reader knows is on the page: the products, and the look-alikes as decoys. */
function shownOf(page: CatalogPage): ShownItem[] {
  const real = page.products.map((p) => ({
    key: p.name,
    display: { name: p.name, price: formatPrice(p.price) },
    item: { name: p.name, price: p.price },
  }));
  const decoys = [...(page.ad !== null ? [AD] : []), ...(page.recommended ? RECOMMENDED : [])];
  return [
    ...real,
    ...decoys.map((d) => ({
      key: d.name,
      display: { name: d.name, price: formatPrice(d.price) },
      item: null,
    })),
  ];
}

type Fate = 'keep' | 'drop' | 'rename' | 'reprice';
interface Scenario {
  first: CatalogPage;
  rerun: CatalogPage;
  /** The routine read page 1 only, or pages 1 and 2 (read, Next page, read). */
  pages: 1 | 2;
  /** The routine ran once on the unchanged page first: the changed page's replay is unchecked. */
  warm: boolean;
  /** The first run's model scoped its read to the list (`SCOPE`), so every replay is scoped. */
  scoped: boolean;
  /** How the shop names the list's pages. */
  paging: Paging;
  /** The list the rerun reads: the learned category, or another of its kind. */
  list: List;
}

/** Products start..start+7 on the first run's page; later ones are the new names. */
const FRESH = 8;

const fate: fc.Arbitrary<Fate> = fc.oneof(
  { weight: 4, arbitrary: fc.constant('keep' as const) },
  { weight: 2, arbitrary: fc.constant('drop' as const) },
  { weight: 1, arbitrary: fc.constant('rename' as const) },
  { weight: 1, arbitrary: fc.constant('reprice' as const) },
);

const layout: fc.Arbitrary<Layout> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('plain' as const) },
  { weight: 1, arbitrary: fc.constant('wrapped' as const) },
  { weight: 1, arbitrary: fc.constant('reclassed' as const) },
);

/** The rerun's products: each first-run product's fate, new ones put in, some swapped. */
function rerunProducts(
  start: number,
  first: readonly Product[],
  change: {
    fates: Fate[];
    added: number[];
    swaps: [number, number][];
    cents: number;
    wipe: boolean;
  },
): Product[] {
  if (change.wipe) return [];
  let fresh = start + FRESH;
  const products = first.flatMap((p, k): Product[] => {
    const f = change.fates[k] ?? 'keep';
    if (f === 'drop') return [];
    if (f === 'rename') return [{ ...p, name: product(fresh++).name }];
    if (f === 'reprice')
      return [{ ...p, price: Math.round(p.price * 100 + change.cents * (k + 1)) / 100 }];
    return [p];
  });
  for (const at of change.added)
    products.splice(Math.min(at, products.length), 0, product(fresh++));
  for (const [a, b] of change.swaps) {
    if (products.length < 2) break;
    const i = a % products.length;
    const j = b % products.length;
    [products[i], products[j]] = [products[j] as Product, products[i] as Product];
  }
  return products;
}

const scenario: fc.Arbitrary<Scenario> = fc
  .record({ start: fc.integer({ min: 0, max: 480 }), count: fc.integer({ min: 1, max: 8 }) })
  .chain(({ start, count }) => {
    const products = Array.from({ length: count }, (_, k) => product(start + k));
    return fc.record({
      first: fc.record({
        products: fc.constant(products),
        layout: fc.constant('plain' as const),
        ad: fc.option(fc.nat(count), { freq: 5 }),
        recommended: fc.constantFrom<Strip>(null, 'list', 'cards'),
        pager: fc.constant('bottom' as const),
      }),
      rerun: fc
        .record({
          fates: fc.array(fate, { minLength: count, maxLength: count }),
          added: fc.array(fc.nat(8), { maxLength: 3 }),
          swaps: fc.array(fc.tuple(fc.nat(10), fc.nat(10)), { maxLength: 3 }),
          cents: fc.integer({ min: 1, max: 99_999 }),
          // A page that lists nothing any more (sold out, a filter that matches nothing).
          wipe: fc.oneof(
            { weight: 1, arbitrary: fc.constant(true) },
            { weight: 9, arbitrary: fc.constant(false) },
          ),
          layout,
          ad: fc.option(fc.nat(10), { freq: 3 }),
          recommended: fc.constantFrom<Strip>(null, null, 'list', 'cards', 'cards-above'),
          pager: fc.constantFrom<Pager>('bottom', 'top', 'renamed', 'none'),
        })
        .map(({ layout: l, ad, recommended, pager, ...change }) => ({
          products: rerunProducts(start, products, change),
          layout: l,
          ad,
          recommended,
          pager,
        })),
      pages: fc.constantFrom<1 | 2>(1, 2),
      warm: fc.boolean(),
      scoped: fc.boolean(),
      paging: fc.constantFrom(...PAGINGS),
      list: fc.constantFrom<List>('learned', 'other'),
    });
  });

/**
 * The store, and the extraction service behind a scripted model that reads like a careful one:
 * from its prompt alone, the products it is told of, leaving out the look-alikes. `known` is
 * the page the model is reading now (a repriced product is another item than the first run's).
 */
async function setup() {
  const store = await createLibsqlStore({ url: ':memory:' });
  const env = { store, known: [] as ShownItem[] };
  const llm = scriptedExtractionLlm({
    fault: (call) => ({ answer: answerKnownItems(call.prompt, env.known) }),
  });
  const deps = nodeDeps({ extraction: new ExtractionService({ llm, store }) });
  return Object.assign(env, { llm, deps });
}
type Setup = Awaited<ReturnType<typeof setup>>;

const onPage = (state: InteractStateType, url: string, html: string, tree: SemanticNodeV3[]) => ({
  ...state,
  page: pageWith({ url, tree, snapshot: { mode: 'content', text: html } }),
});

/** The first run's extraction of `page`: its trace entry, verified with the items it read. */
async function firstRun(
  env: Setup,
  page: CatalogPage,
  scoped: boolean,
  paging: Paging,
): Promise<RoutineTraceEntry> {
  const url = pageUrl('learned', 1, paging);
  env.known = shownOf(page);
  const schema = productListSchema(['name', 'price']);
  const before = onPage(
    stateWith({
      tenantId: 't1',
      taskId: 'task-1',
      pendingExtraction: {
        query: 'products',
        outputSchema: schema,
        ...(scoped ? { cssSelector: SCOPE } : {}),
      },
    }),
    url,
    scoped
      ? sentHtml(catalogHtml(page, 1, 'learned', paging), url, SCOPE)
      : catalogHtml(page, 1, 'learned', paging),
    treeOf(page),
  );
  const [read] = applyUpdate(before, await extraction(env.deps)(before)).routineTrace;
  if (!read?.verified || !read.read?.extractionId) throw new Error('the first run read nothing');
  return read;
}

/** The routine the first run compiles into: one read, or read, Next page, read. */
function routineOf(read: RoutineTraceEntry, pages: 1 | 2, paging: Paging): Routine {
  if (pages === 1) return savedRoutine(GOAL, [read]);
  const two = pageUrl('learned', 2, paging);
  return savedRoutine(GOAL, [read, nextPageClick(read, two), { ...read, beforeUrl: two }]);
}

/** Where the routine's last read is: page 2 of the list when it pages, else its first page. */
const lastRead = (s: Scenario) => ({
  url: pageUrl(s.list, s.pages, s.paging),
  n: s.pages,
  list: s.list,
  paging: s.paging,
});

/**
 * A rerun of the routine's last read on `page`, found at `at`: the step asks for the content,
 * the extraction reads it, and the step judges the read. The earlier steps (page 1, the click)
 * replay as the read-step tests show; what is varied here is the page the last read finds.
 */
async function rerunOn(
  env: Setup,
  routine: Routine,
  page: CatalogPage,
  taskId: string,
  at: { url: string; n: number; list: List; paging: Paging },
) {
  const { url } = at;
  env.known = shownOf(page);
  const tree = treeOf(page);
  const start: InteractStateType = stateWith({
    tenantId: 't1',
    taskId,
    query: GOAL,
    complexity: 'COMPLEX',
    page: pageWith({ url, tree }),
    routineRun: { ...startRun(routine, {}, TOKENS), next: routine.steps.length - 1 },
  });
  const asked = applyUpdate(start, await routineStep(env.deps)(start));
  expect(asked.pendingExtraction).toEqual({ extractionId: routine.steps.at(-1)?.value });
  // What the extension sends for the step's request: the part it names, and the links outside
  // that part when the step asks for them.
  const html = catalogHtml(page, at.n, at.list, at.paging);
  const selector = asked.pageRequest?.selector;
  const read = selector
    ? {
        ...asked,
        pageRequest: null,
        page: pageWith({
          url,
          tree,
          snapshot: {
            mode: 'content',
            text: sentHtml(html, url, selector),
            ...(asked.pageRequest?.pageLinks ? { links: sentLinks(html, selector) } : {}),
          },
        }),
      }
    : onPage({ ...asked, pageRequest: null }, url, html, tree);
  const extracted = applyUpdate(read, await extraction(env.deps)(read));
  const after = applyUpdate(extracted, await routineStep(env.deps)(extracted));
  const records = await env.store.extractionResults.listByTask('t1', taskId);
  return { after, stored: records.flatMap((r) => (Array.isArray(r.data) ? r.data : [r.data])) };
}

const itemsOf = (page: CatalogPage) => page.products.map((p) => ({ name: p.name, price: p.price }));

/** Only the products changed: same markup, no look-alike, nothing past the routine's pages. */
const benign = (s: Scenario) =>
  s.rerun.layout === 'plain' &&
  s.rerun.ad === null &&
  !s.rerun.recommended &&
  s.rerun.products.length > 0 &&
  (s.pages === 1 || s.rerun.pager === 'none');

type Outcome = 'completed' | 'handed over';

/** One scenario end to end; throws when the rerun finished with data the page does not hold. */
async function check(s: Scenario): Promise<Outcome> {
  const env = await setup();
  const read = await firstRun(env, s.first, s.scoped, s.paging);
  const routine = routineOf(read, s.pages, s.paging);
  if (s.warm) await rerunOn(env, routine, s.first, 'task-warm', lastRead(s));
  const { after, stored } = await rerunOn(env, routine, s.rerun, 'task-rerun', lastRead(s));
  const run = after.routineRun;
  if (after.status === 'completed') {
    expect(run?.fellBack).toBeNull();
    // Exactly the rerun page's products, in its order: none of the first run's page that are
    // gone, no look-alike, no stale price or name.
    expect(stored).toEqual(itemsOf(s.rerun));
    expect(stored.length).toBeGreaterThan(0);
    // A list with a Next page still there goes on past the pages the routine reads.
    if (s.pages === 2) expect(s.rerun.pager).toBe('none');
    return 'completed';
  }
  expect(run?.fellBack).toEqual(expect.any(String));
  expect(routeAfterRoutineStep(after)).toBe('action_generation');
  // A change to the products alone is what a routine is for: it must not give up on it.
  expect(benign(s), run?.fellBack ?? '').toBe(false);
  return 'handed over';
}

describe('a routine that reads a catalogue that changed since its first run', () => {
  it('stores exactly the rerun page’s products, or hands over to the agent', async () => {
    const outcomes: Outcome[] = [];
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        outcomes.push(await check(s));
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // The property is not met by handing everything over: most changed pages still complete.
    const completed = outcomes.filter((o) => o === 'completed').length;
    expect(completed).toBeGreaterThan(outcomes.length / 3);
    expect(completed).toBeLessThan(outcomes.length);
  }, 60_000);

  // Shrunk from the property (seed 33): the first replay after the shop added a strip of
  // "Recommended for you" cards in the grid's own markup read them as catalogue items, and the
  // model's cross-check of the first items agreed. A heading outside the cards now divides the
  // items, which it did not on the learning page: the replay declines (replay/sections.ts).
  it('leaves out a "Recommended" strip in the grid’s own markup that came after the first run', async () => {
    const first = catalog([product(0)]);
    for (const warm of [false, true]) {
      const s: Scenario = {
        first,
        rerun: { ...first, recommended: 'cards' },
        pages: 1,
        warm,
        scoped: false,
        paging: 'numbered',
        list: 'learned',
      };
      expect(await check(s)).toBe('completed');
    }
  });

  // The shop redesigned its grid (or it lists nothing now), and only the "Recommended" strip
  // still uses the old card markup. The recipe matched exactly those cards, none divided from
  // another, every spot check passed, and the routine stored the recommendations as the
  // catalogue. The recipe now keeps the heading its items sat under ("Products"); these sit
  // under "Recommended for you", so the replay declines (replay/sections.ts): the model reads
  // the redesigned grid, or, with nothing to list, the routine hands over. The generator draws
  // these cases too.
  it('does not store a strip of old-markup cards as the items of a redesigned grid', async () => {
    const first = catalog([product(0)]);
    const strip = { recommended: 'cards' as const };
    for (const warm of [false, true]) {
      const redesigned: Scenario = {
        first,
        rerun: { ...first, ...strip, layout: 'reclassed' },
        pages: 1,
        warm,
        scoped: false,
        paging: 'numbered',
        list: 'learned',
      };
      expect(await check(redesigned)).toBe('completed');
      const empty: Scenario = {
        first,
        rerun: { ...first, ...strip, products: [] },
        pages: 1,
        warm,
        scoped: false,
        paging: 'numbered',
        list: 'learned',
      };
      expect(await check(empty)).toBe('handed over');
    }
  });

  // Shrunk from the property: the Next page link is still there but named otherwise ("More
  // products"). The routine did not find its pager by name, took the list for ended and
  // finished with the pages it read while the list goes on. The tree has no link targets, but
  // the last read's HTML does: a link to a later page of the list shows the list goes on, and the
  // routine hands over (routines/leads-on.ts). When the first page had no number (/catalog/,
  // then ?page=2), page 2's link to ?page=3 was not known as its next page until the check read
  // any later page of the pager's shape. On a rerun for another category (/catalog/9/ for a
  // routine learned on /catalog/7/) with a bare first page, the same link was not known either.
  it('hands over when the Next page link is still there under another name', async () => {
    const first = catalog([product(0)]);
    const lists: List[] = ['learned', 'other'];
    for (const warm of [false, true])
      for (const scoped of [false, true])
        for (const paging of PAGINGS)
          for (const list of lists) {
            const s: Scenario = {
              first,
              rerun: { ...first, pager: 'renamed' },
              pages: 2,
              warm,
              scoped,
              paging,
              list,
            };
            const label = `${paging}, ${list}${scoped ? ', scoped' : ''}`;
            expect(await check(s), label).toBe('handed over');
          }
    // The last page: no link leads on, and the routine completes as before.
    for (const scoped of [false, true])
      for (const paging of PAGINGS)
        for (const list of lists) {
          const end: Scenario = {
            first,
            rerun: { ...first, pager: 'none' },
            pages: 2,
            warm: false,
            scoped,
            paging,
            list,
          };
          expect(await check(end)).toBe('completed');
        }
  });
});
