import { describe, expect, it } from 'vitest';
import { extractMainContent } from './main-content';

const declared = '<script type="application/ld+json">{"@type":"Product","name":"Mug"}</script>';

const page = (main: string): string => `<!doctype html><html><head><title>Shop</title>
${declared}</head><body><nav><a href="/">Home</a><a href="/cart">Cart</a></nav>
${main}
<footer><p>Copyright 2026 Example Shop. All rights reserved.</p></footer></body></html>`;

const sheet = `<h1>Stoneware mug</h1><p class="price">$18.00</p>
  <p>A heavy stoneware mug, glazed by hand, that keeps coffee warm through a long morning meeting.</p>
  <p>Each one is thrown on the wheel, so the glaze and the shape differ a little from mug to mug.</p>
  <table><tr><th>Capacity</th><td>350 ml</td></tr><tr><th>Height</th><td>9 cm</td></tr><tr><th>Dishwasher</th><td>Yes</td></tr></table>`;

/** A carousel of other products: repeated items, each a linked title and a price. */
const teasers = (prices: boolean, n = 4): string =>
  `<section><h2>You may also like</h2><ul>${Array.from(
    { length: n },
    (_, i) =>
      `<li><a href="/p/${i}"><h3>Other product number ${i + 1}</h3></a><span>${prices ? `$${20 + i}.00` : 'New colour'}</span></li>`,
  ).join('')}</ul></section>`;

describe('product pages: lists of other products', () => {
  it('drops a list of priced items beside the sheet and keeps the sheet', () => {
    const out = extractMainContent(page(`<main>${sheet}${teasers(true)}</main>`));
    expect(out.pageType).toBe('product');
    for (const kept of ['Stoneware mug', '$18.00', 'thrown on the wheel', '350 ml'])
      expect(out.text).toContain(kept);
    expect(out.text).not.toContain('Other product number');
    expect(out.text).not.toContain('$21.00');
  });

  it('keeps a repeated list whose items show no price (reviews, variants)', () => {
    const out = extractMainContent(page(`<main>${sheet}${teasers(false)}</main>`));
    expect(out.text).toContain('Other product number 4');
  });

  it('keeps the list when it holds most of the region: the sheet was not found', () => {
    const out = extractMainContent(page(`<main>${sheet}${teasers(true, 12)}</main>`));
    expect(out.text).toContain('thrown on the wheel');
    expect(out.text).toContain('Other product number 12');
  });

  it('leaves other pages alone', () => {
    const html = page(`<main>${sheet}${teasers(true)}</main>`).replace(declared, '');
    const out = extractMainContent(html, { url: 'https://example.com/journal/mugs' });
    expect(out.pageType).not.toBe('product');
    expect(out.text).toContain('Other product number 4');
  });
});
