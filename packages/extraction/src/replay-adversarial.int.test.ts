// The generated adversarial suite for the replay of learned strategies, in CI with a fixed seed:
// page sequences whose later pages differ from the learning page (locales, split-span prices,
// "Sponsored" look-alikes, badges, wrappers, swapped table columns, another entity under the
// same URL pattern), run through the real service and store with a scripted model that answers
// from its prompt alone. What holds today is asserted: the generator's ground truth is
// consistent, the runner counts right, the model path is exact, benign pagination replays, and
// no replay is silently wrong (see the end).
import { createLibsqlStore } from '@tandem/store';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseContent } from './content';
import {
  adversarialFigures,
  formatFigures,
  summaryLine,
  type KindFigures,
} from './testing/adversarial-figures';
import { answerKnownItems } from './testing/adversarial-model';
import {
  formatLocalePrice,
  VARIATION_KINDS,
  VARIATIONS,
  type AdversarialScenario,
  type Item,
} from './testing/adversarial-pages';
import {
  runScenarios,
  sameItems,
  scoreFields,
  type ScenarioOutcome,
} from './testing/adversarial-runner';
import { adversarialScenario, sampleScenarios } from './testing/adversarial-scenarios';
import { matchesUrl, urlPatternFor } from './url-pattern';

const SEED = 20_261_130;
/** Pairs run end to end here; the bench runs ≥ 500. */
const PAIRS = 64;

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

function typeOk(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  return typeof value === type;
}

function checkTruth(scenario: AdversarialScenario): void {
  const items = scenario.schema.items as {
    properties: Record<string, { type: string }>;
    required: string[];
  };
  expect(scenario.pages.length).toBeGreaterThanOrEqual(2);
  expect(scenario.label).toBe(VARIATIONS[scenario.kind].label);
  for (const page of scenario.pages) {
    const text = textOf(page.html);
    const keys = page.truth.map((item) => String(item[scenario.keyField]));
    expect(new Set(keys).size).toBe(keys.length);
    // The truth is exactly the shown items that are not decoys, in page order.
    expect(page.truth).toEqual(page.shown.flatMap((s) => (s.item ? [s.item] : [])));
    for (const shown of page.shown) {
      for (const display of Object.values(shown.display)) {
        expect(text).toContain(display.replace(/\s+/g, ' '));
      }
    }
    for (const item of page.truth) {
      for (const name of items.required) expect(item[name]).toBeDefined();
      for (const [name, value] of Object.entries(item)) {
        expect(typeOk(value, items.properties[name]?.type ?? '?')).toBe(true);
      }
    }
    expect(page.html).toMatch(/<html lang="[a-z]{2}-[A-Z]{2}">/);
  }
}

describe('the adversarial page generator', () => {
  it('draws page sequences whose ground truth is on the page and fits the schema', () => {
    fc.assert(fc.property(adversarialScenario(), checkTruth), { seed: SEED, numRuns: 150 });
  });

  it('puts every later page under the URL pattern learned on page 1, but other sections', () => {
    fc.assert(
      fc.property(adversarialScenario(), (scenario) => {
        const pattern = urlPatternFor(scenario.pages[0]?.url ?? '');
        // /orders3/list is another section than /katalog2/list: the learned pattern keeps
        // every segment, so those pages are not replayed at all. Sibling sections (/hats/list
        // after /shoes/list) are outside it too, until a page shows they share the recipe.
        const foreign = ['digit-path', 'sibling-section', 'path-pagination'].includes(
          scenario.kind,
        );
        for (const [i, page] of scenario.pages.entries()) {
          const own = page.url.startsWith(scenario.pages[0]?.url.split('?')[0] ?? '?');
          expect(matchesUrl(pattern, page.url), page.url).toBe(i === 0 || !foreign || own);
        }
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('leaves ads and other entities out of the truth, and writes prices per locale', () => {
    const [ads] = fc.sample(adversarialScenario(['ads']), { seed: SEED, numRuns: 1 });
    const page = ads?.pages[0];
    expect(page?.shown.some((s) => s.item === null && s.key !== '')).toBe(true);
    expect(page?.html).toContain('Sponsored');
    const [shipments] = fc.sample(adversarialScenario(['table-other-entity']), {
      seed: SEED,
      numRuns: 1,
    });
    expect(shipments?.pages[1]?.truth).toEqual([]);
    expect(formatLocalePrice(123_450, 'en')).toBe('$1,234.50');
    expect(formatLocalePrice(123_450, 'de')).toBe('1.234,50\u00a0€');
    expect(formatLocalePrice(123_450, 'fr')).toBe('1\u202f234,50\u00a0€');
    expect(formatLocalePrice(12_345_000, 'en-IN')).toBe('₹1,23,450.00');
    expect(formatLocalePrice(190_800, 'de', true)).toBe('1.908\u00a0€');
  });

  it('samples every kind, in turns, until the pairs are there', () => {
    const scenarios = sampleScenarios(SEED, 40);
    const pairs = scenarios.reduce((sum, s) => sum + s.pages.length - 1, 0);
    expect(pairs).toBeGreaterThanOrEqual(40);
    expect(new Set(scenarios.map((s) => s.kind))).toEqual(new Set(VARIATION_KINDS));
    expect(sampleScenarios(SEED, 40)).toEqual(scenarios);
  });
});

describe('the scripted model of the suite', () => {
  it('answers from its prompt exactly the real items it shows, skipping decoys', () => {
    fc.assert(
      fc.property(adversarialScenario(), (scenario) => {
        const known = scenario.pages.flatMap((p) => p.shown);
        for (const page of scenario.pages) {
          const markdown = parseContent({ html: page.html, url: page.url }).markdown;
          const prompt = `Schema of "data":\n${JSON.stringify(scenario.schema)}\n<page_content untrusted="true">\n${markdown}\n</page_content>`;
          expect(answerKnownItems(prompt, known).data).toEqual(page.truth);
        }
        // Without the page in its prompt it knows nothing.
        expect(answerKnownItems('no page here', known).data).toEqual([]);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});

describe('the runner accounting', () => {
  const truth: Item[] = [
    { name: 'A', price: 1 },
    { name: 'B', price: 2, rating: 4 },
  ];
  it('scores fields by key and compares items as a multiset', () => {
    expect(scoreFields(truth, truth, 'name', ['name', 'price', 'rating'])).toEqual({
      extractedFields: 5,
      correctFields: 5,
      truthFields: 5,
      recalledFields: 5,
    });
    // A badge read as the name: the item's key is wrong, so all its fields are.
    const badge = [{ name: 'Bestseller', price: 1 }, truth[1]];
    expect(scoreFields(badge, truth, 'name', ['name', 'price', 'rating'])).toEqual({
      extractedFields: 5,
      correctFields: 3,
      truthFields: 5,
      recalledFields: 3,
    });
    expect(sameItems([...truth].reverse(), truth)).toBe(true);
    expect(sameItems([truth[0], { ...truth[1], rating: 5 }], truth)).toBe(false);
    expect(sameItems([], [])).toBe(true);
  });
});

describe('the suite end to end (fixed seed)', () => {
  let outcomes: ScenarioOutcome[];
  let figures: KindFigures[];

  beforeAll(async () => {
    const store = await createLibsqlStore({ url: ':memory:' });
    outcomes = await runScenarios(sampleScenarios(SEED, PAIRS), { store, modelOnly: true });
    figures = adversarialFigures(outcomes);
    console.log(
      [`adversarial replay, seed ${SEED}:`, ...formatFigures(figures), summaryLine(figures)].join(
        '\n',
      ),
    );
  }, 120_000);

  it('learns on page 1 by the model, exactly', () => {
    for (const { learn } of outcomes) {
      expect(learn.method).toBe('model');
      expect(learn.exact).toBe(true);
    }
  });

  it('has the model path exact on every later page (no strategy to replay)', () => {
    for (const page of outcomes.flatMap((o) => o.later)) {
      expect(page.modelOnly?.exact, `${page.kind} ${page.url}`).toBe(true);
    }
  });

  it('counts every pair once, and every replay as exact, warned or silently wrong', () => {
    const all = figures.find((f) => f.kind === 'all') as KindFigures;
    const pages = outcomes.flatMap((o) => o.later);
    expect(all.pairs).toBe(pages.length);
    expect(all.pairs).toBeGreaterThanOrEqual(PAIRS);
    const kinds = figures.filter((f) => f.kind !== 'all');
    expect(kinds.reduce((sum, f) => sum + f.pairs, 0)).toBe(all.pairs);
    for (const f of figures) {
      expect(f.replayExact + f.wrongWithWarning + f.silentlyWrong).toBe(f.replayTaken);
      expect(f.replayTaken).toBeLessThanOrEqual(f.pairs);
    }
    for (const page of pages) {
      if (!page.replayed) expect(page.silentlyWrong).toBe(false);
      if (page.method === 'model') expect(page.tokens).toBeGreaterThan(0);
      // A replay costs no token unless the model cross-checked it (a recipe's first replay).
      if (page.replayed && !page.checked) expect(page.tokens).toBe(0);
      if (page.replayed && page.checked) expect(page.tokens).toBeGreaterThan(0);
    }
  });

  it('replays benign pagination (new items, same layout) exactly', () => {
    const paginated = outcomes.filter((o) =>
      ['pagination', 'table-pagination'].includes(o.scenario.kind),
    );
    expect(paginated.filter((o) => o.learned).length).toBeGreaterThan(0);
    for (const o of paginated) {
      // Every page 1 teaches a recipe: bare tables with their header row in <tbody>, and
      // French prices over 1 000 (grouped by a narrow no-break space), included.
      expect(o.learned, o.scenario.pages[0]?.url).toBe(true);
      if (!o.learned) continue;
      for (const page of o.later) {
        expect(page.replayed, page.url).toBe(true);
        expect(page.exact, page.url).toBe(true);
      }
    }
  });

  // The replay only answers on evidence: every kind, hostile or benign, has no silently wrong
  // replay (a page that does not fit declines to the model, with the reason in its warnings),
  // and the benign kinds still replay.
  it('has no silently wrong replay on any kind, and benign pages still replay', () => {
    expect(new Set(figures.map((f) => f.kind))).toEqual(new Set([...VARIATION_KINDS, 'all']));
    for (const f of figures) expect(f.silentlyWrong, f.kind).toBe(0);
    const benign = figures.filter((f) => f.label === 'benign');
    const taken = benign.reduce((sum, f) => sum + f.replayTaken, 0);
    const pairs = benign.reduce((sum, f) => sum + f.pairs, 0);
    expect(taken).toBeGreaterThanOrEqual(0.8 * pairs);
  });

  it('keeps a recipe per layout: with two layouts taking turns, both survive and both replay', () => {
    const turns = outcomes.filter((o) => o.scenario.kind === 'two-layout');
    expect(turns.length).toBeGreaterThan(0);
    for (const o of turns) {
      const [second, ...rest] = o.later;
      // Page 2 is the other layout's first: the model reads it and teaches a second recipe.
      expect(second?.method, second?.url).toBe('model');
      for (const page of rest) {
        expect(page.replayed, page.url).toBe(true);
        expect(page.exact, page.url).toBe(true);
      }
      // Page 3 replays the first layout's recipe, page 4 the second's: two recipe ids.
      const ids = new Set(rest.slice(0, 2).map((p) => p.recipeId));
      expect(ids.size).toBe(2);
      const recipes = (o.final?.replay?.['recipes'] as unknown[] | undefined) ?? [];
      expect(recipes).toHaveLength(2);
      expect(o.strategies).toBe(1);
    }
  });

  it('pays one model read for paging by path: page 2 widens the pattern, pages 3.. replay', async () => {
    // The fixed sample may hold only two-page ones: a longer one is drawn too.
    const longer = fc
      .sample(adversarialScenario(['path-pagination']), { seed: SEED, numRuns: 20 })
      .find((scenario) => scenario.pages.length >= 4) as AdversarialScenario;
    const store = await createLibsqlStore({ url: ':memory:' });
    const paged = [
      ...outcomes.filter((o) => o.scenario.kind === 'path-pagination'),
      ...(await runScenarios([longer], { store, tenantPrefix: 'path-pages' })),
    ];
    expect(paged.at(-1)?.later.filter((p) => p.replayed).length).toBeGreaterThanOrEqual(2);
    for (const o of paged) {
      const [second, ...rest] = o.later;
      expect(second?.method, second?.url).toBe('model');
      expect(o.final?.urlPattern).toMatch(/^http:\/\/shop\.test\/[a-z]+\/page\/\*\?\*\*$/);
      expect(o.strategies).toBe(1);
      for (const page of rest) {
        expect(page.replayed, page.url).toBe(true);
        expect(page.exact, page.url).toBe(true);
      }
    }
  });

  it('widens a sibling section’s pattern on evidence, and never replays the orders page', () => {
    const siblings = outcomes.filter((o) => o.scenario.kind === 'sibling-section');
    expect(siblings.length).toBeGreaterThan(0);
    for (const o of siblings) {
      const [second, ...rest] = o.later;
      const orders = rest.at(-1);
      expect(second?.method, second?.url).toBe('model');
      expect(second?.exact).toBe(true);
      // /shoes/list and /hats/list: one strategy, its pattern widened where they differ.
      expect(o.final?.urlPattern).toBe('http://shop.test/*/list?**');
      expect(o.strategies).toBe(1);
      for (const page of rest.slice(0, -1)) {
        expect(page.replayed, page.url).toBe(true);
        expect(page.exact, page.url).toBe(true);
      }
      expect(orders?.url).toBe('http://shop.test/orders/list');
      expect(orders?.replayed).toBe(false);
      expect(orders?.warnings.join(' ')).toMatch(/share no word with the learning page/);
    }
  });

  it('says why it declined: a later page the model read instead has the reason in its warnings', () => {
    // digit-path pages fall outside the learned URL pattern: no strategy is tried there; nor
    // on a sibling section's first page, before it widened the pattern.
    const declined = outcomes
      .filter((o) => o.learned && o.scenario.kind !== 'digit-path')
      .flatMap((o) => o.later)
      .filter(
        (p) =>
          !p.replayed && !(['sibling-section', 'path-pagination'].includes(p.kind) && p.page === 2),
      );
    expect(declined.length).toBeGreaterThan(0);
    for (const page of declined) {
      const reason = page.warnings.find((w) => w.includes('did not fit this page'));
      expect(reason, `${page.kind} ${page.url}`).toMatch(/did not fit this page \(.+\)/);
    }
  });
});
