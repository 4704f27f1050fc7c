// Values a page shows only through accessibility attributes reach the model: a star rating that
// is a row of glyphs with its value in aria-label or title. The pages are generated (fast-check,
// fixed seed), run through the real service and store with the scripted model that answers only
// what its prompt shows (testing/adversarial-model.ts): a rating the Markdown dropped is a
// rating the model cannot return, so field recall measures what the conversion kept.
import { createLibsqlStore } from '@tandem/store';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LISTING_SCHEMA,
  ORIGIN,
  type AdversarialScenario,
  type GeneratedPage,
  type Item,
  type ShownItem,
} from './testing/adversarial-pages';
import { runScenario, type FieldScore } from './testing/adversarial-runner';

const SEED = 30;
const NAMES = ['Oak chair', 'Pine desk', 'Birch shelf', 'Elm stool', 'Ash bench', 'Teak table'];

interface Product {
  name: string;
  cents: number;
  rating: number;
}

/** How the rating is written: glyphs only, its value in an attribute a screen reader reads. */
const RATING_MARKUP = {
  ariaLabel: (r: number) => `<span class="stars" aria-label="${r} out of 5 stars">★★★★☆</span>`,
  title: (r: number) => `<span class="stars" title="${r} out of 5 stars">★★★☆☆</span>`,
  labelledBy: (r: number, id: string) =>
    `<span id="${id}" hidden>${r} out of 5 stars</span><span class="stars" aria-labelledby="${id}">★★★★★</span>`,
} as const;
type RatingMarkup = keyof typeof RATING_MARKUP;

function page(listed: readonly Product[], markup: RatingMarkup, n: number): GeneratedPage {
  // Names differ between pages: the scripted model knows every page's items by name.
  const products = listed.map((p) => ({ ...p, name: `${p.name} No. ${n}` }));
  const cards = products.map((p, i) => {
    const price = `$${(p.cents / 100).toFixed(2)}`;
    const rating = RATING_MARKUP[markup](p.rating, `r${n}-${i}`);
    return `<li class="card"><h3 class="name">${p.name}</h3><span class="price">${price}</span>${rating}</li>`;
  });
  const shown: ShownItem[] = products.map((p) => ({
    key: p.name,
    display: {
      name: p.name,
      price: `$${(p.cents / 100).toFixed(2)}`,
      rating: `${p.rating} out of 5 stars`,
    },
    item: { name: p.name, price: p.cents / 100, rating: p.rating },
  }));
  return {
    url: `${ORIGIN}/catalog/chairs?page=${n}`,
    html: `<!doctype html><html lang="en-US"><head><title>Chairs catalog</title></head><body><h1>Chairs catalog</h1><ul class="grid">${cards.join('')}</ul></body></html>`,
    truth: shown.map((s) => s.item as Item),
    shown,
  };
}

const product = fc.record({
  name: fc.constantFrom(...NAMES),
  cents: fc.integer({ min: 100, max: 99_999 }),
  rating: fc.integer({ min: 2, max: 10 }).map((half) => half / 2),
});
const recall = (score: FieldScore) => score.recalledFields / Math.max(1, score.truthFields);
const pageOf = fc.uniqueArray(product, { minLength: 2, maxLength: 6, selector: (p) => p.name });

describe('values only in accessibility attributes', () => {
  it('reach the model: every rating is extracted, by the model and through the strategy', async () => {
    const store = await createLibsqlStore({ url: ':memory:' });
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom<RatingMarkup>('ariaLabel', 'title', 'labelledBy'),
          pageOf,
          pageOf,
          async (markup, first, second) => {
            run += 1;
            const scenario: AdversarialScenario = {
              kind: 'pagination',
              label: 'benign',
              locale: 'en',
              markup: 'classed',
              schema: LISTING_SCHEMA,
              query: 'every product with its name, price and rating',
              keyField: 'name',
              fields: ['name', 'price', 'rating'],
              pages: [page(first, markup, 1), page(second, markup, 2)],
            };
            const outcome = await runScenario(scenario, {
              store,
              tenantId: `a11y-${run}`,
              modelOnly: true,
            });
            // Field recall 1.0 where the rating exists only in an attribute: page 1 read by the
            // model, page 2 by the model alone and through the strategy (replayed or declined).
            expect(outcome.learn.method, markup).toBe('model');
            expect(recall(outcome.learn.score), markup).toBe(1);
            expect(outcome.learn.exact, markup).toBe(true);
            for (const later of outcome.later) {
              expect(later.modelOnly?.exact, `${markup} page 2 by the model`).toBe(true);
              expect(recall(later.score), `${markup} page 2 (${later.method})`).toBe(1);
              expect(later.exact, `${markup} page 2 (${later.method})`).toBe(true);
            }
          },
        ),
        { seed: SEED, numRuns: 30 },
      );
    } finally {
      await store.close();
    }
  }, 120_000);
});
