// Outline and Markdown content of the demo docs article and of five real pages (article, forum,
// product, documentation, listing) against golden files checked by hand.
import { describe, it } from 'vitest';
import { snapshotHtml } from '../../src/server';
import { DOCS_DEMO_PATH, readDocsDemo } from './docs-demo';
import { expectGolden } from './golden';
import { pageUrl, pagesDevMissing, readPage } from './pages-dev';

const DOCS_URL = `http://127.0.0.1${DOCS_DEMO_PATH}`;

/** Everything but the page chrome: what an agent asks for to read a page. */
const MAIN_CONTENT = {
  pattern: '^(BANNER|NAVIGATION|CONTENTINFO|ASIDE|SEARCH) ',
  invert: true,
} as const;

describe('demo docs article', () => {
  const html = readDocsDemo();

  it('outline', () => {
    expectGolden('docs-demo.outline.txt', snapshotHtml(html, { mode: 'outline', url: DOCS_URL }));
  });

  it('content as Markdown for the spec example grep', () => {
    expectGolden(
      'docs-demo.content-markdown.txt',
      snapshotHtml(html, {
        mode: 'content',
        format: 'markdown',
        grep: 'section#overview|section#auth|section#endpoints',
        url: DOCS_URL,
      }),
    );
  });

  it('content as a tree, links and images included', () => {
    expectGolden(
      'docs-demo.content-tree.txt',
      snapshotHtml(html, {
        mode: 'content',
        grep: MAIN_CONTENT,
        includeLinks: true,
        includeImages: true,
        url: DOCS_URL,
      }),
    );
  });
});

const missing = pagesDevMissing();
if (missing) console.warn(missing);

// 0006 article, 0360 forum (Stack Exchange), 0185 product, 0661 documentation (Django), 0076 listing.
describe.skipIf(missing !== undefined).each(['0006', '0360', '0185', '0661', '0076'])(
  'pages-dev %s',
  (name) => {
    const html = missing ? '' : readPage(name);

    it('outline', () => {
      expectGolden(
        `${name}.outline.txt`,
        snapshotHtml(html, { mode: 'outline', url: pageUrl(name) }),
      );
    });

    it('main content as Markdown, 3,000 characters per section', () => {
      expectGolden(
        `${name}.content-markdown.txt`,
        snapshotHtml(html, {
          mode: 'content',
          format: 'markdown',
          grep: MAIN_CONTENT,
          maxLength: 3_000,
          url: pageUrl(name),
        }),
      );
    });
  },
);
