// Text that only accessibility attributes carry, through main-content extraction (annotateTree
// before the pre-clean, filled in after the scoring, turndown). The rules and their property
// tests are @tandem/markdown's (accessible-text.test.ts); these cases check this pipeline's
// wiring: <meta> and <svg> survive the pre-clean as text, labels resolve across the page,
// links without text stay unnamed, and added text is escaped like the rest.
import { describe, expect, it } from 'vitest';
import { extractMainContent } from './main-content';
import { toMarkdown } from './markdown';

const PROSE =
  'This blender crushes ice in seconds, keeps its blades sharp for years, and washes clean in the dishwasher without any fuss at all.';

/** The extracted Markdown of a product page holding `part` after enough prose to be main. */
function extract(part: string, options: { preserveHidden?: boolean } = {}): string {
  const html = `<!doctype html><html><head><title>Blender</title></head><body>
<nav><a href="/">Home</a></nav>
<main><h1>Blender</h1><p>${PROSE}</p>${part}<p>${PROSE}</p></main>
<footer id="legal">Legal notice</footer></body></html>`;
  return extractMainContent(html, options).markdown;
}

const CASES: [string, string, string][] = [
  [
    'a star rating in an aria-label',
    '<p>Rating: <span aria-label="4.5 out of 5 stars">★★★★☆</span></p>',
    'Rating: 4.5 out of 5 stars',
  ],
  [
    'microdata <meta> (dropped by the pre-clean)',
    '<div itemscope><meta itemprop="ratingValue" content="4.5"><p>Reviewed by buyers.</p></div>',
    'ratingValue: 4.5',
  ],
  [
    'a labelled <svg> (dropped by the pre-clean)',
    '<p><svg role="img" aria-label="Verified seller"><path/></svg> Acme</p>',
    'Verified seller Acme',
  ],
  ['an icon title', '<p><i title="In stock"></i> Ships today</p>', 'In stock Ships today'],
  [
    'labelledby outside the main content',
    '<p><span aria-labelledby="legal">★</span></p>',
    'Legal notice',
  ],
  [
    'time, data, abbr, meter, progress',
    '<p><time datetime="2026-11-03">Nov 3</time>; <data value="8710">Eight thousand</data>; <abbr title="World Health Organization">WHO</abbr>; <meter value="3" max="5"></meter>; <progress value="0.7"></progress></p>',
    'Nov 3 (2026-11-03); Eight thousand (8710); WHO (World Health Organization); 3 of 5; 70%',
  ],
  [
    'a pipe in a table cell',
    '<table><tr><th>Item</th><th>Stock</th></tr><tr><td>Mug</td><td aria-label="yes | ships">✓</td></tr></table>',
    '| Mug | yes \\| ships |',
  ],
  [
    'hostile label',
    '<p><span aria-label="**x** <b>y</b> [z](http://evil)">★</span></p>',
    '\\*\\*x\\*\\* \\<b\\>y\\</b\\> \\[z\\](http://evil)',
  ],
];

describe('main content: accessible text', () => {
  it.each(CASES)('%s', (_what, part, expected) => {
    expect(extract(part)).toContain(expected);
  });

  it('adds nothing for a repeated label, a hidden element or a link without text', () => {
    const out = extract(
      '<p><span aria-label="Free shipping">Free shipping</span> <span hidden aria-label="SECRET-1">★</span>' +
        '<span aria-hidden="true" title="SECRET-2"></span> <a href="/b"><img alt="SECRET-3"></a></p>',
    );
    expect(out.match(/Free shipping/g)).toHaveLength(1);
    for (const secret of ['SECRET-1', 'SECRET-2', 'SECRET-3']) expect(out).not.toContain(secret);
  });

  it('leaves the Markdown of HTML without markers as it was', () => {
    expect(toMarkdown('<p>Plain <b>text</b> only.</p>')).toBe('Plain **text** only.');
  });
});
