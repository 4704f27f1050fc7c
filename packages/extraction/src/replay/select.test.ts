import { parseHtml, releaseDocument } from '@tandem/page/server';
import { afterAll, describe, expect, it } from 'vitest';
import { cardsPage, detailPage, productAt, products, tablePage } from './fixtures';
import { queryFirst } from './select';

const docs = [
  parseHtml(cardsPage(products(6, 1))),
  parseHtml(tablePage(products(6, 1))),
  parseHtml(detailPage(productAt(3), 5)),
];
afterAll(() => docs.forEach(releaseDocument));

const SELECTORS = [
  'span.price',
  'h3.product-name > a',
  'a:nth-of-type(1)',
  'td:nth-child(2)',
  'tr > td:nth-child(3)',
  ':scope > div.meta > span.rating',
  ':scope > td',
  'div.buy-box > span.price',
  'article[data-sku="P-3"] span',
  'article[data-sku] .price',
  'img[alt="Deluxe Router 103"]',
  'main h1',
  '*.rating',
  'DIV.meta SPAN',
  // Outside the fast grammar: answered by querySelector.
  'span + span',
  'a:first-child',
  'article:not(.x) h3',
];

describe('queryFirst', () => {
  it('finds what querySelector finds, from every element of the test pages', () => {
    let compared = 0;
    for (const doc of docs) {
      for (const scope of doc.querySelectorAll('body, body *')) {
        for (const selector of SELECTORS) {
          expect(queryFirst(scope, selector), `${selector} in <${scope.localName}>`).toBe(
            scope.querySelector(selector),
          );
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(2000);
  });

  it('answers null for a selector that does not parse', () => {
    const scope = docs[0]?.body;
    if (!scope) throw new Error('no body');
    expect(queryFirst(scope, 'td:nth-child(')).toBeNull();
    expect(queryFirst(scope, '> span')).toBeNull();
  });
});
