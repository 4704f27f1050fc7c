import { describe, expect, it } from 'vitest';
import { digestHtml } from './html-digest';

const page = `<!doctype html><html><head><title>Shop</title><style>.x{color:red}</style>
<script>window.secret = "token-123";</script></head>
<body class="app" style="margin:0">
  <!-- build 42 -->
  <div class="wrapper"><div><h1 class="title">Canvas shop</h1>
  <p>Draw your <b>order</b> below.</p>
  <canvas id="shop" width="640" height="360" style="border:1px"></canvas>
  <a href="/cart" class="nav" data-track="x">Cart</a>
  <a href="javascript:void(0)">Nothing</a>
  <svg aria-label="Logo" viewBox="0 0 10 10"><path d="M0 0L10 10"/></svg>
  <input type="text" name="q" placeholder="Search" disabled>
  </div></div>
</body></html>`;

describe('digestHtml', () => {
  it('keeps text, structure and the attributes that say what an element is', () => {
    expect(digestHtml(page)).toBe(
      [
        '<h1>Canvas shop</h1>',
        '<p>Draw your order below.</p>',
        '<canvas id="shop" width="640" height="360"></canvas>',
        '<a href="/cart">Cart</a>',
        '<a>Nothing</a>',
        '<svg aria-label="Logo"></svg>',
        '<input type="text" name="q" placeholder="Search" disabled>',
      ].join('\n'),
    );
  });

  it('drops scripts, styles and comments entirely', () => {
    const digest = digestHtml(page);
    expect(digest).not.toContain('token-123');
    expect(digest).not.toContain('color:red');
    expect(digest).not.toContain('build 42');
    expect(digest).not.toContain('M0 0');
  });

  it('cuts to the budget and says how much was cut', () => {
    const long = `<p>${'word '.repeat(5_000)}</p>`;
    const digest = digestHtml(long, 1_000);
    expect(digest.length).toBeLessThan(1_100);
    expect(digest).toMatch(/\n… \d+ more characters of HTML cut$/);
  });
});

describe('digestHtml on hostile markup', () => {
  // Each of these took the regular-expression digest minutes (an unclosed quote or block made
  // every later match rescan the rest of the page); the tokenizer reads each character once.
  it('reads a page of unclosed quotes and unclosed scripts', () => {
    expect(digestHtml('<div a="'.repeat(200_000))).toBe('');
    expect(digestHtml(`<p>before</p>${'<script>'.repeat(200_000)}`)).toBe('<p>before</p>');
  });

  it('reads a page nested past what browsers build only to that depth, and says so', () => {
    const digest = digestHtml(`<p>top</p>${'<div>'.repeat(1_000_000)}`);
    expect(digest).toBe(
      '<p>top</p>\n… the page nests elements more than 512 deep; the rest was left out',
    );
  });

  it('keeps the first of two attributes of one name, as browsers do', () => {
    expect(digestHtml('<img alt="first" alt="" src="a.png">')).toBe(
      '<img alt="first" src="a.png">',
    );
  });
});
