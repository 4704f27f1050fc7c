import { type AnyNode, type Element, isTag, isText } from 'domhandler';
import fc from 'fast-check';
import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import {
  type AccessibleTextOptions,
  compactDatetime,
  escapeAddedText,
  MARKER_MODE,
  MARKER_TAG,
  MAX_ADDED_CHARS,
  renderAddition,
} from './accessible-text';
import { annotateTree } from './html/accessible-text-tree';

/**
 * The body's text after annotation, markers written as the converters' turndown rules write
 * them (renderAddition): enough to see what a converter's Markdown would say.
 */
function annotated(html: string, options: AccessibleTextOptions = {}): string {
  const doc = parseDocument(html, { decodeEntities: true });
  const body = DomUtils.findOne((el) => el.name === 'body', doc.children) as Element;
  annotateTree(body, doc, options)();
  const write = (node: AnyNode): string => {
    if (isText(node)) return node.data;
    if (!isTag(node)) return '';
    if (node.name === MARKER_TAG)
      return renderAddition(node.attribs[MARKER_MODE] ?? null, DomUtils.textContent(node));
    if (/^(?:svg|meta|link|script|style)$/.test(node.name)) return '';
    return node.children.map(write).join('');
  };
  return body.children.map(write).join('').replace(/\s+/g, ' ').trim();
}

const page = (body: string): string => `<!doctype html><html><body>${body}</body></html>`;

const LONG = 'word '.repeat(200).trim();

/** [what, markup, expected text]: each kind of attribute, suppression, hiding, hostile values. */
const CASES: [string, string, string][] = [
  // Accessible names of icons and glyphs.
  [
    'aria-label on stars',
    'Rating: <span class="stars" aria-label="4.5 out of 5 stars">★★★★☆</span>',
    'Rating: 4.5 out of 5 stars',
  ],
  [
    'title on an icon',
    '<i class="icon-check" title="In stock"></i> Ships today',
    'In stock Ships today',
  ],
  [
    'aria-labelledby beats aria-label',
    '<span id="r">Score 9 of 10</span> <span aria-labelledby="r" aria-label="nine">★</span>',
    'Score 9 of 10 Score 9 of 10',
  ],
  [
    'svg with a label',
    '<svg role="img" aria-label="Verified seller"><path/></svg> Acme',
    'Verified seller Acme',
  ],
  ['image-only link', '<a href="/p"><img src="a.png" alt="Acme logo"></a>', 'Acme logo'],
  [
    'icon link with a label',
    '<a href="/cart" aria-label="Cart, 3 items"><svg></svg></a>',
    'Cart, 3 items',
  ],
  [
    'role=img with glyph content',
    '<div role="img" aria-label="Rated 4 of 5">●●●●○</div>',
    'Rated 4 of 5',
  ],
  // A label adding words to short visible text follows it.
  [
    'label glossing a number',
    '<span aria-label="IMDb rating: 9.3">9.3</span>',
    '9.3 (IMDb rating: 9.3)',
  ],
  // Values.
  [
    'time without a year',
    'Posted <time datetime="2026-11-03">Nov 3</time>',
    'Posted Nov 3 (2026-11-03)',
  ],
  ['time shown whole', '<time datetime="2026-11-03">November 3, 2026</time>', 'November 3, 2026'],
  [
    'time a day off (zones)',
    '<time datetime="2024-06-02T20:22:24-04:00">Jun 3, 2024</time>',
    'Jun 3, 2024',
  ],
  [
    'relative time with a number: the date',
    '<time datetime="2026-03-07T22:05:00Z">5 hours ago</time>',
    '5 hours ago (2026-03-07)',
  ],
  [
    'relative time in words: date and time',
    '<time datetime="2026-11-03T19:30">Tonight</time>',
    'Tonight (2026-11-03 19:30)',
  ],
  ['data value', '<data value="8710">Eight thousand</data>', 'Eight thousand (8710)'],
  ['data value shown', '<data value="19.99">$19.99</data>', '$19.99'],
  [
    'abbr on first use only',
    '<abbr title="World Health Organization">WHO</abbr> and <abbr title="World Health Organization">WHO</abbr>',
    'WHO (World Health Organization) and WHO',
  ],
  ['meter', 'Rating <meter value="3" min="0" max="5"></meter>', 'Rating 3 of 5'],
  ['meter with fallback text', '<meter value="3" max="5">3/5</meter>', '3/5'],
  ['meter without max', '<meter value="0.7"></meter>', '70%'],
  ['progress', '<progress value="70" max="100"></progress>', '70%'],
  ['indeterminate progress', '<progress></progress>', ''],
  [
    'labelled ARIA meter',
    '<div role="meter" aria-label="Battery" aria-valuenow="40" aria-valuemax="100"></div>',
    'Battery: 40 of 100',
  ],
  // Microdata.
  [
    'meta with a value the text lacks',
    '<div itemscope><meta itemprop="ratingValue" content="4.5"><span>Great blender</span></div>',
    'ratingValue: 4.5 Great blender',
  ],
  [
    'meta with a value the text shows',
    '<div itemscope><meta itemprop="ratingValue" content="4.5"><span>4.5 stars</span></div>',
    '4.5 stars',
  ],
  [
    'content attribute matching the text',
    '<span itemprop="price" content="19.99">$19.99</span>',
    '$19.99',
  ],
  [
    'content attribute differing from the text',
    '<span itemprop="price" content="25.00">Sale!</span>',
    'Sale! (25.00)',
  ],
  [
    'schema.org enumeration',
    '<div itemscope><link itemprop="availability" href="https://schema.org/InStock">Buy</div>',
    'availability: InStock Buy',
  ],
  [
    'microdata links and positions are not text',
    '<div itemscope><meta itemprop="url" content="https://x.test/p"><meta itemprop="position" content="2">Item</div>',
    'Item',
  ],
  [
    "an interaction counter's type and count are not text",
    '<div itemscope><div itemprop="interactionStatistic" itemscope><meta itemprop="interactionType" content="https://schema.org/LikeAction"><meta itemprop="userInteractionCount" content="0"></div><p>Thanks, that fixed it.</p></div>',
    'Thanks, that fixed it.',
  ],
  // Repeats and bloat.
  ['label equal to the text', '<a href="/x" aria-label="Read more">Read more</a>', 'Read more'],
  [
    'label repeating the text in other case and spacing',
    '<span aria-label="add  TO cart">Add to cart</span>',
    'Add to cart',
  ],
  [
    'link label that is an action on its text',
    '<a href="/u" aria-label="View all posts by Ann Lee">Ann Lee</a>',
    'Ann Lee',
  ],
  [
    'label of a region',
    '<section aria-label="Customer reviews"><p>Works well.</p></section>',
    'Works well.',
  ],
  [
    'label of a cell with text',
    '<table><tr><td aria-label="Row 2 Column 1">Part-time</td></tr></table>',
    'Part-time',
  ],
  ['label of a cell with a glyph', '<table><tr><td aria-label="Yes">✓</td></tr></table>', 'Yes'],
  [
    'label of a block with text',
    '<div aria-label="breadcrumb"><a href="/">Home</a> / Shoes</div>',
    'Home / Shoes',
  ],
  [
    'an empty role=img box: a picture',
    '<div role="img" aria-label="Banner photo of a kitchen"></div>',
    '',
  ],
  [
    'an empty role=img box with a number: a rating',
    '<div role="img" aria-label="Rated 4.1 out of 5"></div>',
    'Rated 4.1 out of 5',
  ],
  [
    'a meta datetime with a spaced zone',
    '<div itemscope><meta itemprop="datePublished" content="2024-05-09 00:00:00 +0000">Post</div>',
    'datePublished: 2024-05-09 Post',
  ],
  ['title on text (a tooltip)', '<span title="Tooltip">Visible words</span>', 'Visible words'],
  [
    'image link repeating the card title',
    '<div><a href="/p"><img alt="Bamboo Board hover image"></a><h3>Bamboo Board</h3></div>',
    'Bamboo Board',
  ],
  [
    'in-page anchor icon',
    '<h2>Setup <a href="#setup" aria-label="Link to this section">#</a></h2>',
    'Setup #',
  ],
  ['buttons are controls', '<button aria-label="Add to cart"><svg></svg></button>', ''],
  // Hidden.
  ['aria-hidden', '<span aria-hidden="true" aria-label="secret">★</span>', '★'],
  [
    'aria-hidden glyphs under a label',
    '<span aria-label="4 out of 5"><span aria-hidden="true">★★★★☆</span></span>',
    '4 out of 5',
  ],
  [
    'aria-hidden words stay visible text',
    '<span aria-label="Free shipping"><span aria-hidden="true">Free shipping</span></span>',
    'Free shipping',
  ],
  ['hidden attribute', '<span hidden title="secret"></span>', ''],
  ['display:none', '<span style="display: none" aria-label="secret"></span>', ''],
  ['inside a hidden parent', '<div hidden><i title="secret"></i></div>', ''],
  // Hostile values.
  [
    'Markdown and HTML in a label',
    '<span aria-label="*bold* [x](javascript:alert(1)) <img src=x onerror=alert(1)> `code` # h">★</span>',
    '\\*bold\\* \\[x\\](javascript:alert(1)) \\<img src=x onerror=alert(1)\\> \\`code\\` \\# h',
  ],
  ['a label starting a list', '<span aria-label="- item">★</span>', '\\- item'],
  ['control and bidi characters', '<span aria-label="a\u202Eb\u0007c">★</span>', 'a b c'],
];

describe('accessible text', () => {
  it.each(CASES)('%s', (_what, markup, expected) => {
    expect(annotated(page(markup))).toBe(expected);
  });

  it('names image-only links only when asked to', () => {
    const markup = page('<a href="/p"><img src="a.png" alt="Acme logo"></a>');
    expect(annotated(markup, { linkNames: false })).toBe('');
  });

  it('leaves the alt of images the converter writes to the image', () => {
    const markup = page('<a href="/p"><img src="a.png" alt="Acme logo"></a>');
    expect(annotated(markup, { imagesShown: true })).toBe('');
  });

  it(`cuts a long value to ${MAX_ADDED_CHARS} characters on a word boundary`, () => {
    const text = annotated(page(`<span aria-label="${LONG}">★</span>`));
    expect(text.length).toBeLessThanOrEqual(MAX_ADDED_CHARS);
    expect(text).toMatch(/^word( word)*…$/);
  });

  it('escapes pipes only for converters whose cells do not', () => {
    expect(escapeAddedText('a | b')).toBe('a | b');
    expect(escapeAddedText('a | b', true)).toBe('a \\| b');
    expect(renderAddition('append', '1. first')).toBe('(1\\. first)');
  });

  it('compacts datetimes', () => {
    expect(compactDatetime('2026-11-03T00:00:00Z')).toBe('2026-11-03');
    expect(compactDatetime('2026-11-03T14:22:31.120+01:00')).toBe('2026-11-03 14:22');
    expect(compactDatetime('PT2H30M')).toBe('PT2H30M');
  });

  // Rating and price widgets as shops write them: the value in an aria-label, a title, a
  // microdata attribute, a <data> or a <meter>, around glyphs or a visible copy of the label.
  const value = fc
    .tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 9 }))
    .map(([whole, tenth]) => `${whole}.${tenth}`);
  const label = fc
    .tuple(fc.constantFrom('Rated', 'Rating:', 'Score', ''), value)
    .map(([word, v]) => `${word} ${v} out of 5 stars`.trim());
  const glyphs = fc.constantFrom('★★★★☆', '', '●●●○○', '\ue001\ue001');
  const widget = fc.oneof(
    fc
      .tuple(label, glyphs, fc.constantFrom('span', 'div', 'i', 'b'))
      .map(([l, g, tag]) => ({ value: l, html: `<${tag} aria-label="${l}">${g}</${tag}>` })),
    fc
      .tuple(label, glyphs)
      .map(([l, g]) => ({ value: l, html: `<span class="stars" title="${l}">${g}</span>` })),
    fc.tuple(value, glyphs).map(([v, g]) => ({
      value: v,
      html: `<div itemscope><meta itemprop="ratingValue" content="${v}"><span>${g}</span></div>`,
    })),
    fc.tuple(value, fc.constantFrom('Sale!', 'Best price', 'Deal')).map(([v, text]) => ({
      value: v,
      html: `<span itemprop="price" content="${v}">${text}</span>`,
    })),
    value.map((v) => ({ value: v, html: `<data value="${v}">see price</data>` })),
    fc.integer({ min: 0, max: 5 }).map((n) => ({
      value: `${n} of 5`,
      html: `<meter value="${n}" min="0" max="5"></meter>`,
    })),
    label.map((l) => ({ value: l, html: `<a href="/r" aria-label="${l}"><svg></svg></a>` })),
  );
  const wrapper = fc.constantFrom(
    (inner: string) => `<p>${inner}</p>`,
    (inner: string) => `<div class="card"><h3>Blender</h3>${inner}</div>`,
    (inner: string) => `<ul><li>Blender ${inner}</li></ul>`,
    (inner: string) => `<table><tr><th>Rating</th></tr><tr><td>${inner}</td></tr></table>`,
  );

  it('gets every generated widget value into the text', () => {
    fc.assert(
      fc.property(widget, wrapper, (w, wrap) => {
        const text = annotated(page(wrap(w.html)));
        expect(text).toContain(w.value);
      }),
      { seed: 30, numRuns: 300 },
    );
  });

  it('writes a label that repeats the visible text once', () => {
    const words = fc.stringMatching(/^[A-Za-z][a-z]{1,7}( [0-9.]{1,4})?( [a-z]{2,6})?$/);
    fc.assert(
      fc.property(
        words,
        fc.constantFrom('span', 'a', 'div', 'strong'),
        wrapper,
        (text, tag, wrap) => {
          const href = tag === 'a' ? ' href="/x"' : '';
          const html = page(wrap(`<${tag}${href} aria-label="${text}">${text}</${tag}>`));
          const out = annotated(html);
          expect(out.split(text).length - 1).toBe(1);
        },
      ),
      { seed: 30, numRuns: 300 },
    );
  });
});
