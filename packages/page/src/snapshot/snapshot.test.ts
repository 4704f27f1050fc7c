// snapshot() over small parsed documents (jsdom, no layout): outline lines, xpaths and their
// resolution, grep, selector scoping, content formats, maxLength and the links/images flags.
import type { SnapshotGrep } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { parseHtml, snapshotParsed } from '../server';
import { resolveXpath } from './snapshot';

const URL = 'https://docs.example.com/api';

const PAGE = `<!doctype html><html><head><title>API Reference</title>
<style>p { color: red }</style><script>var secret = "do not extract";</script></head>
<body>
  <header class="flex items-center css-1x2y3z">
    <nav aria-label="Main menu" id=":r1:"><ul><li><a href="/">Home</a></li><li><a href="/guides">Guides</a></li></ul></nav>
  </header>
  <div class="container"><div class="row">
    <main>
      <h1>API Reference</h1>
      <section id="overview" class="intro">
        <h2>Overview</h2>
        <p>The Example API provides programmatic access to all platform features.</p>
        <p>See the <a href="/docs/start">getting started guide</a> first.</p>
        <img src="/img/arch.png" alt="Architecture">
      </section>
      <section id="auth">
        <h2>Authentication</h2>
        <p>All API requests require an API key.</p>
        <pre><code class="language-bash">curl -H "Authorization: Bearer KEY" \\
  https://api.example.com/v1/users</code></pre>
        <p hidden>Internal note that is hidden.</p>
        <p style="display: none">Also hidden inline.</p>
      </section>
      <section class="reviews">
        <h2>Reader Comments</h2>
        ${Array.from({ length: 7 }, (_, i) => `<article><p>Comment ${i + 1} says the API is fine and the docs are clear enough.</p></article>`).join('')}
      </section>
      <div class="p-4 sc-abc123"><div id="ember123"><p>Loose paragraph in utility wrappers.</p></div></div>
    </main>
  </div></div>
  <footer><p>Copyright Example</p></footer>
</body></html>`;

const doc = parseHtml(PAGE);
const outline = (options: Parameters<typeof snapshotParsed>[1] = {}) =>
  snapshotParsed(doc, { mode: 'outline', url: URL, ...options });
const content = (options: Parameters<typeof snapshotParsed>[1] = {}) =>
  snapshotParsed(doc, { mode: 'content', url: URL, ...options });

const xpaths = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => / (\/\S*)$/.exec(line)?.[1])
    .filter((x): x is string => x !== undefined);

describe('outline', () => {
  const text = outline();

  it('starts with the PAGE and OUTLINE header lines (no viewport without layout)', () => {
    const [page, stats] = text.split('\n');
    expect(page).toBe(`PAGE: ${URL} | API Reference`);
    expect(stats).toMatch(/^OUTLINE: landmarks=4 sections=10 headings=4 words=\d+$/);
  });

  it('prints one indented line per landmark, region, heading and block with semantic xpaths', () => {
    expect(text).toContain('\nBANNER [2 words, 2 links] /header\n');
    expect(text).toContain('\n  NAVIGATION "Main menu" [2 words, 2 links] /header/nav\n');
    expect(text).toContain('\n    LIST [2 items, 2 links] /header/nav/ul\n');
    expect(text).toContain('\n  HEADING level=1 "API Reference" /main/h1\n');
    expect(text).toMatch(
      /\n {2}REGION "Overview" \[\d+ words, 1 link\] \/main\/section#overview\n/,
    );
    expect(text).toMatch(
      /\n {4}PARAGRAPH \[2 paragraphs, \d+ words\] \/main\/section#overview\/p\n/,
    );
    expect(text).toContain('\n    CODE [bash, 2 lines] /main/section#auth/pre\n');
    expect(text).toContain('\n  REGION "Reader Comments"');
    expect(text).toContain('/main/section.reviews\n');
    expect(text).toMatch(/\nCONTENTINFO \[2 words\] \/footer\n/);
  });

  it('cuts long runs of alike siblings to a preview and "+N more"', () => {
    expect(text).toContain(
      '    ARTICLE "Comment 1 says the API is fine and…" [13 words] [preview] /main/section.reviews/article[1]\n',
    );
    expect(text).toContain('/main/section.reviews/article[2]\n    TEXT "+5 more articles"');
    expect(text).not.toContain('article[3]');
  });

  it('never shows bare wrappers, utility classes or generated ids', () => {
    const all = xpaths(text);
    expect(all.length).toBeGreaterThan(10);
    for (const xpath of all) {
      expect(xpath).not.toMatch(/\/(?:div|span)(?:\/|\[\d+\]|$)/);
      expect(xpath).not.toMatch(/flex|items-center|css-|sc-|p-4|container|row|ember|:r1:/);
    }
    expect(text).toContain('PARAGRAPH [1 paragraph, 5 words] /main/p\n');
  });

  it('leaves out hidden elements, scripts and styles', () => {
    expect(text).not.toMatch(/secret|color: red/);
    const auth = content({ grep: 'section#auth', format: 'markdown' });
    expect(auth).not.toMatch(/Internal note|hidden inline/);
    expect(snapshotParsed(doc, { mode: 'content', url: URL, includeHidden: true })).toMatch(
      /Internal note that is hidden\.[\s\S]*Also hidden inline\./,
    );
  });

  it('resolves every xpath it prints back to the element', () => {
    for (const xpath of xpaths(text)) expect(resolveXpath(doc, xpath).length).toBeGreaterThan(0);
    expect(resolveXpath(doc, '/main/section#auth/pre')[0]?.textContent).toContain('curl');
    expect(resolveXpath(doc, '/main/section.reviews/article[7]')[0]?.textContent).toContain(
      'Comment 7',
    );
    expect(resolveXpath(doc, '/main/section#overview/p')).toHaveLength(2);
    expect(resolveXpath(doc, '/main/section#nope')).toEqual([]);
    expect(resolveXpath(doc, 'main')).toEqual([]);
  });

  it('limits nesting with maxDepth', () => {
    const top = outline({ maxDepth: 1 });
    expect(top).toContain('\nMAIN');
    expect(top).not.toMatch(/\n {2}\S/);
  });

  it('filters lines with grep but keeps the header; no run is collapsed while searching', () => {
    const found = outline({ grep: 'article\\[6\\]' });
    // The article's own paragraph matches too: its xpath extends the article's.
    expect(found.split('\n').slice(3)).toEqual([
      '    ARTICLE "Comment 6 says the API is fine and…" [13 words] [preview] /main/section.reviews/article[6]',
      '      PARAGRAPH [1 paragraph, 13 words] /main/section.reviews/article[6]/p',
    ]);
    expect(found.split('\n')[1]).toMatch(/grep=article\\\[6\\\]$/);
  });

  it('applies ignoreCase, invert and fixedStrings', () => {
    const lines = (grep: SnapshotGrep) => outline({ grep }).split('\n').slice(3);
    expect(lines({ pattern: 'code', ignoreCase: true })).toEqual([
      '    CODE [bash, 2 lines] /main/section#auth/pre',
    ]);
    expect(lines({ pattern: 'code' })).toEqual([]);
    const inverted = lines({ pattern: 'section', invert: true });
    expect(inverted.length).toBeGreaterThan(3);
    expect(inverted.join('\n')).not.toContain('section');
    expect(lines({ pattern: 'section.intro', fixedStrings: true })).toEqual([]);
    expect(lines({ pattern: '/main/h1', fixedStrings: true })).toEqual([
      '  HEADING level=1 "API Reference" /main/h1',
    ]);
  });
});

describe('selector', () => {
  it('scopes the outline to a CSS selector, keeping absolute xpaths', () => {
    const scoped = outline({ selector: '#auth' });
    expect(scoped.split('\n').slice(3)).toEqual([
      'REGION "Authentication" [19 words] /main/section#auth',
      '  HEADING level=2 "Authentication" /main/section#auth/h2',
      // Hidden siblings still count for [n]: paths must not change when something is shown.
      '  PARAGRAPH [1 paragraph, 7 words] /main/section#auth/p[1]',
      '  CODE [bash, 2 lines] /main/section#auth/pre',
    ]);
  });

  it('takes an xpath from the outline', () => {
    expect(content({ selector: '/main/section#auth/pre', format: 'markdown' })).toContain(
      '<!-- xpath: /main/section#auth/pre -->\n\n```bash\ncurl -H "Authorization: Bearer KEY" \\\n  https://api.example.com/v1/users\n```',
    );
  });

  it('takes an element id from the interactive tree', () => {
    const withIds = parseHtml(
      '<body><main><section id="a"><p>Alpha text</p></section><section data-llm-id="14"><h2>Beta</h2><p>Beta text</p></section></main></body>',
    );
    for (const selector of ['@ref:14', 'ref:14', '14']) {
      const text = snapshotParsed(withIds, { mode: 'content', selector, format: 'markdown' });
      expect(text).toContain('## Beta\n\nBeta text');
      expect(text).not.toContain('Alpha');
    }
  });

  it('fails clearly when nothing matches', () => {
    expect(() => outline({ selector: '#missing' })).toThrow(/matches no element/);
    expect(() => outline({ selector: '@ref:99' })).toThrow(/no element with id 99/);
    expect(() => outline({ selector: 'div[' })).toThrow(/invalid CSS selector/);
  });
});

describe('content', () => {
  it('extracts the sections grep selects as Markdown with source, xpath and end comments', () => {
    const text = content({ grep: 'section#overview|section#auth', format: 'markdown' });
    expect(text).toBe(
      [
        `<!-- source: ${URL} -->`,
        '<!-- xpath: /main/section#overview -->',
        '',
        '## Overview',
        '',
        'The Example API provides programmatic access to all platform features.',
        '',
        'See the getting started guide first.',
        '',
        '<!-- xpath: /main/section#auth -->',
        '',
        '## Authentication',
        '',
        'All API requests require an API key.',
        '',
        '```bash',
        'curl -H "Authorization: Bearer KEY" \\',
        '  https://api.example.com/v1/users',
        '```',
        '',
        '<!-- end: 36 words extracted -->',
      ].join('\n'),
    );
  });

  it('renders links and images only when asked, with absolute URLs', () => {
    const text = content({
      grep: 'section#overview',
      format: 'markdown',
      includeLinks: true,
      includeImages: true,
    });
    expect(text).toContain(
      'See the [getting started guide](https://docs.example.com/docs/start) first.',
    );
    expect(text).toContain('![Architecture](https://docs.example.com/img/arch.png)');
    const tree = content({ grep: 'section#overview', includeLinks: true, includeImages: true });
    expect(tree).toContain(
      'TEXT "See the [getting started guide](https://docs.example.com/docs/start) first."',
    );
    expect(tree).toContain('IMAGE "Architecture" https://docs.example.com/img/arch.png');
    const plain = content({ grep: 'section#overview' }).split('\n').slice(1).join('\n');
    expect(plain).not.toMatch(/https:|IMAGE/);
  });

  it('renders the spec tree format by default', () => {
    const text = content({ grep: 'section#auth' });
    expect(text).toBe(
      [
        `PAGE: ${URL} | API Reference`,
        'CONTENT: sections=1 words=19 grep=section#auth',
        '',
        'SECTION /main/section#auth [19 words]',
        '  HEADING level=2 "Authentication"',
        '  TEXT "All API requests require an API key."',
        '  CODE [bash, 2 lines]',
        '    curl -H "Authorization: Bearer KEY" \\',
        '      https://api.example.com/v1/users',
      ].join('\n'),
    );
  });

  it('gives cleaned HTML in html format', () => {
    const text = content({ grep: 'section#auth', format: 'html' });
    expect(text).toContain('<!-- xpath: /main/section#auth -->\n\n<section id="auth">');
    expect(text).toContain('<pre><code class="language-bash">curl');
    expect(text).not.toContain('hidden');
  });

  it('with an inverted grep, leaves out what the pattern names', () => {
    const text = content({
      grep: { pattern: 'nav|footer|article', invert: true },
      format: 'markdown',
    });
    expect(text).toContain('<!-- xpath: /header -->');
    expect(text).toContain('<!-- xpath: /main -->');
    expect(text).not.toMatch(/Home|Guides|Copyright|Comment 1/);
    expect(text).toContain('## Reader Comments');
  });

  it('without grep extracts the whole scope as one section', () => {
    const text = content({ format: 'markdown' });
    expect(text.match(/<!-- xpath: /g)).toHaveLength(1);
    expect(text).toContain('<!-- xpath: / -->');
    expect(text).toMatch(/Home[\s\S]*Comment 7[\s\S]*Copyright Example/);
  });

  it('caps each section at maxLength characters and says so', () => {
    const text = content({ grep: 'section.reviews', format: 'markdown', maxLength: 120 });
    const body = text.split('<!-- xpath: /main/section.reviews -->\n\n')[1] ?? '';
    const section = body.split('\n\n<!-- truncated')[0] ?? '';
    expect(section.length).toBeLessThanOrEqual(120);
    expect(section).toMatch(/^## Reader Comments\n\nComment 1 says[\s\S]*…$/);
    expect(text).toMatch(
      /<!-- truncated: \d+ of \d+ characters -->\n\n<!-- end: \d+ words extracted -->$/,
    );
    const tree = content({ grep: 'section.reviews', maxLength: 100 });
    expect(tree).toMatch(/… truncated: \d+ of \d+ characters$/);
    const sectionLines = tree.split('[82 words]\n')[1]?.split('\n… truncated')[0] ?? '';
    expect(sectionLines.length).toBeLessThanOrEqual(100);
  });

  it('closes a code fence that maxLength cut open', () => {
    const text = content({ grep: 'section#auth', format: 'markdown', maxLength: 90 });
    const fences = text.match(/^```/gm) ?? [];
    expect(fences.length % 2).toBe(0);
  });

  it('reports when grep matched nothing', () => {
    expect(content({ grep: 'nothing-here', format: 'markdown' })).toBe(
      [
        `<!-- source: ${URL} -->`,
        '<!-- no section matched grep=nothing-here -->',
        '',
        '<!-- end: 0 words extracted -->',
      ].join('\n'),
    );
  });
});

describe('options', () => {
  it('rejects an unknown mode or format, and interactive mode without layout', () => {
    expect(() => snapshotParsed(doc, { mode: 'full' as never })).toThrow(/unknown mode/);
    expect(() => snapshotParsed(doc, { mode: 'content', format: 'pdf' as never })).toThrow(
      /unknown format/,
    );
    expect(() => snapshotParsed(doc, {})).toThrow(/interactive mode needs a rendered page/);
  });
});

describe('content of headings that are buttons', () => {
  it('keeps a card title written as a button inside its heading, and drops other buttons', () => {
    const doc = parseHtml(`<!doctype html><html><body><main><ul id="jobs">
      <li><article><h3><button type="button">Backend Engineer</button></h3>
        <p>Northwind Traders</p><p>Job ID: J-1001</p><button>Save job</button></article></li>
    </ul></main></body></html>`);
    const text = snapshotParsed(doc, {
      mode: 'content',
      format: 'markdown',
      selector: '#jobs',
      url: URL,
    });
    expect(text).toContain('### Backend Engineer');
    expect(text).toContain('Job ID: J-1001');
    expect(text).not.toContain('Save job');
  });

  // A board marks a card "Promoted" in the heading, after the title button. Run into one text
  // node, the title was in no element of its own ("Backend EngineerPromoted"), so selectors
  // learned from the titles could not read that card.
  it('keeps the title an element of its own, apart from a badge beside it', () => {
    const doc = parseHtml(`<!doctype html><html><body><main><ul id="jobs">
      <li><article><h3><button type="button">Backend Engineer</button><span class="badge">Promoted</span></h3>
        <p>Northwind Traders</p></article></li>
      <li><article><h3>New: <button type="button">Data Analyst</button></h3><p>Initech</p></article></li>
    </ul></main></body></html>`);
    const snapshot = (format: 'html' | 'markdown') =>
      snapshotParsed(doc, { mode: 'content', format, selector: '#jobs', url: URL });
    const html = snapshot('html');
    expect(html).toContain(
      '<h3><span>Backend Engineer</span> <span class="badge">Promoted</span></h3>',
    );
    expect(html).toContain('<h3>New: <span>Data Analyst</span></h3>');
    expect(html).not.toContain('<button');
    expect(snapshot('markdown')).toContain('### Backend Engineer Promoted');
  });
});
