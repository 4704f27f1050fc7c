import { DEFAULT_INPUT_LIMITS, InputTooComplexError } from '@tandem/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkHtml, parseHtmlWithinBudget } from './html-budget';

const nested = (depth: number, tag = 'div') =>
  `${`<${tag}>`.repeat(depth)}x${`</${tag}>`.repeat(depth)}`;

describe('checkHtml', () => {
  it('counts elements and nesting of an ordinary page', () => {
    const stats = checkHtml(
      '<!doctype html><html><head><title>T</title></head><body><ul><li>a<li>b</ul><img src=x><br></body></html>',
      DEFAULT_INPUT_LIMITS,
    );
    expect(stats.elements).toBe(9);
    // html > body > ul > li: void elements and implied closes do not deepen the page.
    expect(stats.depth).toBe(4);
  });

  it('refuses nesting past HTML_MAX_DEPTH, naming the limit and its setting', () => {
    expect(checkHtml(nested(512), DEFAULT_INPUT_LIMITS).depth).toBe(512);
    for (const depth of [513, 5_000, 50_000]) {
      expect(() => checkHtml(nested(depth), DEFAULT_INPUT_LIMITS)).toThrow(
        new InputTooComplexError(
          'htmlMaxDepth',
          'The page nests elements more than 512 levels deep; the limit is 512 levels (HTML_MAX_DEPTH).',
        ),
      );
    }
  });

  it('refuses a page of a million unclosed elements at once (the parser’s stack stays short)', () => {
    expect(() => checkHtml('<div>'.repeat(1_000_000), DEFAULT_INPUT_LIMITS)).toThrow(
      /HTML_MAX_DEPTH/,
    );
    expect(() => checkHtml('<a>'.repeat(1_000_000), DEFAULT_INPUT_LIMITS)).toThrow(
      /HTML_MAX_DEPTH/,
    );
  });

  it('refuses more elements than HTML_MAX_ELEMENTS and more bytes than HTML_MAX_MB', () => {
    const limits = { ...DEFAULT_INPUT_LIMITS, htmlMaxElements: 1_000, htmlMaxMb: 1 };
    expect(checkHtml('<p>x</p>'.repeat(1_000), limits).elements).toBe(1_000);
    expect(() => checkHtml('<p>x</p>'.repeat(1_001), limits)).toThrow(
      'The page has more than 1,000 elements; the limit is 1,000 elements (HTML_MAX_ELEMENTS).',
    );
    expect(() => checkHtml('é'.repeat(600_000), limits)).toThrow(
      'The page is 1.2 MB; the limit is 1 MB (HTML_MAX_MB).',
    );
  });

  it('never throws anything but InputTooComplexError, whatever the markup', () => {
    const tag = fc.constantFrom('div', 'p', 'li', 'table', 'tr', 'td', 'a', 'script', 'svg', 'b');
    const piece = fc.oneof(
      tag.map((t) => `<${t}>`),
      tag.map((t) => `</${t}>`),
      fc.constantFrom('<!--', '-->', '<![CDATA[', '"', "'", '<', '>', '&amp;', '<x a="', '\u0000'),
      fc.string({ maxLength: 5 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), (pieces) => {
        const limits = { ...DEFAULT_INPUT_LIMITS, htmlMaxDepth: 20, htmlMaxElements: 150 };
        try {
          const stats = checkHtml(pieces.join(''), limits);
          expect(stats.depth).toBeLessThanOrEqual(20);
          expect(stats.elements).toBeLessThanOrEqual(150);
        } catch (error) {
          expect(error).toBeInstanceOf(InputTooComplexError);
        }
      }),
      { seed: 27, numRuns: 500 },
    );
  });
});

describe('parseHtmlWithinBudget', () => {
  it('builds the same tree as a plain parse while the page is within its budgets', () => {
    const doc = parseHtmlWithinBudget('<ul><li>a<li>b</ul><p>c', DEFAULT_INPUT_LIMITS);
    expect(doc.children.map((n) => ('name' in n ? n.name : n.type))).toEqual(['ul', 'p']);
  });

  it('stops building at the first element over a budget, with the same refusal', () => {
    expect(() => parseHtmlWithinBudget(nested(50_000), DEFAULT_INPUT_LIMITS)).toThrow(
      'The page nests elements more than 512 levels deep; the limit is 512 levels (HTML_MAX_DEPTH).',
    );
    const limits = { ...DEFAULT_INPUT_LIMITS, htmlMaxElements: 10 };
    expect(() => parseHtmlWithinBudget('<b>x</b>'.repeat(11), limits)).toThrow(/HTML_MAX_ELEMENTS/);
  });
});
