// HTML → Markdown for extracted main content: turndown with GFM tables and strikethrough.
// @tandem/page's converter (snapshot/markdown.ts) is not exported from its public entry
// points, so it cannot be imported without reaching into its src/ (banned); this one keeps
// links and images out as that one does by default, since they cost tokens in ingestion.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./turndown-plugin-gfm.d.ts" />
import TurndownService from 'turndown';
import { strikethrough, tables } from 'turndown-plugin-gfm';
import { fenceFor, MARKER_MODE, MARKER_TAG, renderAddition } from '@tandem/markdown';

let service: TurndownService | undefined;

/** turndown-plugin-gfm's test for a table it converts: a first row of <th> cells. */
function hasHeadingRow(table: HTMLTableElement): boolean {
  const first = table.rows[0];
  if (!first) return false;
  const cells = Array.from(first.childNodes).filter((c) => c.nodeType === 1);
  return cells.length > 0 && cells.every((c) => c.nodeName === 'TH');
}

function converter(): TurndownService {
  if (service) return service;
  service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    hr: '---',
  });
  service.use([strikethrough, tables]);
  // Every <pre> is code, kept verbatim. turndown fences only <pre><code>; the <pre> of Sphinx
  // and Pygments (<pre><span>…) came out as escaped prose (`def create\_user(…)`).
  service.addRule('code-block', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const code = (node.textContent ?? '').replace(/\n+$/, '');
      const fence = fenceFor(code);
      return `\n\n${fence}\n${code}\n${fence}\n\n`;
    },
  });
  service.addRule('link-text', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content) => content,
  });
  // GFM tables need a heading row; the others (layout tables, header-less data) stay as
  // HTML in turndown-plugin-gfm. Their cells are rendered as text instead.
  service.addRule('other-tables', {
    filter: (node) => node.nodeName === 'TABLE' && !hasHeadingRow(node as HTMLTableElement),
    replacement: (content) => `\n\n${content}\n\n`,
  });
  // Text that accessibility attributes carry (annotateTree, in main-content.ts), escaped here:
  // attribute values are page content. This converter's table cells do not escape `|`.
  service.addRule('accessible-text', {
    filter: (node) => node.nodeName.toLowerCase() === MARKER_TAG,
    replacement: (_content, node) =>
      renderAddition((node as HTMLElement).getAttribute(MARKER_MODE), node.textContent ?? '', true),
  });
  service.addRule('no-images', {
    filter: (node) => node.nodeName === 'IMG' || node.nodeName === 'PICTURE',
    replacement: () => '',
  });
  return service;
}

export function toMarkdown(node: HTMLElement | string): string {
  try {
    return converter()
      .turndown(node)
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  } catch {
    const text = typeof node === 'string' ? node : (node.textContent ?? '');
    return text.replace(/\s+/g, ' ').trim();
  }
}
