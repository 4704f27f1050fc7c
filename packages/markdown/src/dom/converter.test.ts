// The converter's options over jsdom: what each caller turns on or off, and that an element
// and the same HTML as a string give the same Markdown. Tables: tables.test.ts.
import { JSDOM } from 'jsdom';
import { describe, expect, it, vi } from 'vitest';
import { createMarkdownConverter, type MarkdownOptions } from './converter';

const { window } = new JSDOM('');
const parseHtml = (html: string): Document =>
  new window.DOMParser().parseFromString(html, 'text/html');

const convert = (html: string, options: Partial<MarkdownOptions> = {}): string =>
  createMarkdownConverter({ includeLinks: false, includeImages: false, parseHtml, ...options })(
    html,
  );

const LINKED = '<p>See <a href="/docs">the docs</a> <img src="a.png" alt="A [chart]"></p>';

describe('createMarkdownConverter', () => {
  it('writes links as their text and leaves images out unless asked', () => {
    expect(convert(LINKED)).toBe('See the docs');
    expect(
      convert(LINKED, { includeLinks: true, includeImages: true, baseUrl: 'https://x.test/p/' }),
    ).toBe('See [the docs](https://x.test/docs) ![A \\[chart\\]](https://x.test/p/a.png)');
  });

  it('keeps only absolute links when no base URL is given', () => {
    const html = '<p><a href="https://x.test/a">abs</a> <a href="rel">rel</a></p>';
    expect(convert(html, { includeLinks: true })).toBe('[abs](https://x.test/a) rel');
  });

  it('fences every <pre> verbatim, with the language the page declares', () => {
    const html =
      '<pre class="highlight-source-python"><span>def create_user(a):</span>\n  pass</pre>';
    expect(convert(html)).toBe('```python\ndef create_user(a):\n  pass\n```');
  });

  it('adds the text accessibility attributes carry, unless the caller already did', () => {
    const html = '<p>Rated <span aria-label="4.5 out of 5 stars">★★★★☆</span></p>';
    expect(convert(html)).toBe('Rated 4.5 out of 5 stars');
    expect(convert(html, { accessibleText: false })).toBe('Rated ★★★★☆');
    const marked = '<p>Rated <span><tandem-a11y data-mode="replace">4 | 5</tandem-a11y></span></p>';
    expect(convert(marked, { accessibleText: false })).toBe('Rated 4 | 5');
  });

  it('gives an element and the same HTML as a string the same Markdown, the element unchanged', () => {
    const html =
      '<h2>Prices</h2><table><tr><td>a</td><td rowspan="2">b</td></tr><tr><td>c</td></tr></table>';
    const doc = parseHtml(`<main>${html}</main>`);
    const main = doc.querySelector('main') as Element;
    const before = main.innerHTML;
    const toMarkdown = createMarkdownConverter({ includeLinks: false, includeImages: false });
    expect(toMarkdown(main)).toBe(convert(html));
    expect(toMarkdown(main)).toBe('## Prices\n\n| a | b |\n| --- | --- |\n| c | b |');
    expect(main.innerHTML).toBe(before);
  });

  it('copies an element once and a parsed string never (turndown works on its copy in place)', () => {
    const clone = vi.spyOn(window.Node.prototype, 'cloneNode');
    try {
      const doc = parseHtml('<main><p>One <b>two</b></p></main>');
      const toMarkdown = createMarkdownConverter({ includeLinks: false, includeImages: false });
      expect(toMarkdown(doc.querySelector('main') as Element)).toBe('One **two**');
      expect(clone).toHaveBeenCalledTimes(1);
      clone.mockClear();
      expect(convert('<p>One <b>two</b></p>')).toBe('One **two**');
      expect(clone).not.toHaveBeenCalled();
    } finally {
      clone.mockRestore();
    }
  });

  it('reads tables it was told are normalised already as they are', () => {
    const html = '<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>';
    expect(convert(html, { normalizeTables: false })).toBe('a\n\nb\n\nc\n\nd');
  });

  it('asks for a parser where there is no DOMParser (Node)', () => {
    const toMarkdown = createMarkdownConverter({ includeLinks: false, includeImages: false });
    expect(() => toMarkdown('<p>x</p>')).toThrow(/parseHtml/);
  });
});
