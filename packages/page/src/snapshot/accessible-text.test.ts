// Text that only accessibility attributes carry, through the content snapshot's Markdown (clean
// clone, annotateDom, turndown) over jsdom. The rules themselves and their property tests are
// @tandem/markdown's (accessible-text.test.ts); these cases check this converter's wiring: the
// clone keeps named <svg> and microdata <meta>, labels resolve against the page, images and
// links follow the flags, and added text is escaped like the rest.
import { describe, expect, it } from 'vitest';
import { snapshotHtml } from '../server';

interface Flags {
  includeLinks?: boolean;
  includeImages?: boolean;
  format?: 'markdown' | 'html' | 'tree';
  grep?: string;
}

/** The Markdown of a page's content snapshot, without its comment lines. */
function markdown(body: string, flags: Flags = {}): string {
  const html = `<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`;
  return snapshotHtml(html, {
    mode: 'content',
    format: flags.format ?? 'markdown',
    url: 'https://shop.example/p/1',
    ...(flags.grep ? { grep: { pattern: flags.grep } } : {}),
    ...(flags.includeLinks ? { includeLinks: true } : {}),
    ...(flags.includeImages ? { includeImages: true } : {}),
  })
    .split('\n')
    .filter((line) => !line.startsWith('<!--'))
    .join('\n')
    .trim();
}

const CASES: [string, string, string][] = [
  [
    'a star rating in an aria-label',
    '<p>Rating: <span class="stars" aria-label="4.5 out of 5 stars">★★★★☆</span></p>',
    'Rating: 4.5 out of 5 stars',
  ],
  [
    'an icon title, not italic',
    '<p><i class="icon-check" title="In stock"></i> Ships today</p>',
    'In stock Ships today',
  ],
  [
    'a labelled svg the clone keeps',
    '<p><svg role="img" aria-label="Verified seller"><path d="M0 0"/></svg> Acme</p>',
    'Verified seller Acme',
  ],
  [
    'microdata the clone keeps',
    '<div itemscope><meta itemprop="ratingValue" content="4.5"><meta itemprop="reviewCount" content="120"><p>Blender</p></div>',
    'ratingValue: 4.5 reviewCount: 120\n\nBlender',
  ],
  [
    'time, data, abbr, meter, progress',
    '<p><time datetime="2026-11-03">Nov 3</time>; <data value="8710">Eight thousand</data>; <abbr title="World Health Organization">WHO</abbr>; <meter value="3" max="5"></meter>; <progress value="70" max="100"></progress></p>',
    'Nov 3 (2026-11-03); Eight thousand (8710); WHO (World Health Organization); 3 of 5; 70%',
  ],
  [
    'a repeated label',
    '<p><span aria-label="Free shipping">Free shipping</span></p>',
    'Free shipping',
  ],
  ['aria-hidden', '<p>A <span aria-hidden="true" title="secret"></span>B</p>', 'A B'],
  ['hidden', '<p>A <span hidden aria-label="secret">★</span>B</p>', 'A B'],
  [
    'hostile label',
    '<p><span aria-label="**x** <b>y</b> [z](http://evil)">★</span></p>',
    '\\*\\*x\\*\\* \\<b\\>y\\</b\\> \\[z\\](http://evil)',
  ],
  [
    'a label in a table cell, pipes escaped once',
    '<table><tr><th>Item</th><th>In stock</th></tr><tr><td>Mug</td><td aria-label="yes | ships">✓</td></tr></table>',
    '| Item | In stock |\n| --- | --- |\n| Mug | yes \\| ships |',
  ],
];

describe('content Markdown: accessible text', () => {
  it.each(CASES)('%s', (_what, body, expected) => {
    expect(markdown(body)).toBe(expected);
  });

  it('resolves aria-labelledby outside the grep-selected section', () => {
    const body =
      '<p id="score">Customer score</p><section id="r"><h2>Reviews</h2><span aria-labelledby="score">★★★</span></section>';
    expect(markdown(body, { grep: 'Reviews' })).toBe('## Reviews\n\nCustomer score');
  });

  it('names an image-only link when links are written, as the link text', () => {
    const body = '<p><a href="/brand"><img src="/logo.png" alt="Acme logo"></a> makes it.</p>';
    expect(markdown(body)).toBe('makes it.');
    expect(markdown(body, { includeLinks: true })).toBe(
      '[Acme logo](https://shop.example/brand) makes it.',
    );
    // With images written, the alt is there already.
    expect(markdown(body, { includeLinks: true, includeImages: true })).toBe(
      '[![Acme logo](https://shop.example/logo.png)](https://shop.example/brand) makes it.',
    );
  });

  it('cuts a long label', () => {
    const out = markdown(`<p><span aria-label="${'long '.repeat(100)}">★</span></p>`);
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out.endsWith('…')).toBe(true);
  });

  it('leaves the HTML and tree formats as they were', () => {
    const body = '<div itemscope><meta itemprop="ratingValue" content="4.5"><p>Blender</p></div>';
    expect(markdown(body, { format: 'html' })).not.toContain('meta');
    expect(markdown(body, { format: 'tree' })).not.toContain('4.5');
  });
});
