// Markdown for content mode: turndown with GFM tables, fenced code with the language the
// outline shows, and links/images only when asked (they cost tokens and are often noise).
// Tables are written by our own rules (addTableRules) rather than turndown-plugin-gfm's: the
// plugin keeps a table without an all-<th> first row as raw HTML, writes rows of any width,
// lets a `|` or a paragraph in a cell break the row, and throws on a table without rows.
// The ambient types must come with this file into every program that compiles it (the
// extension and the server typecheck this source too), and a .d.ts cannot be imported.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../types/turndown-plugin-gfm.d.ts" />
import TurndownService from 'turndown';
import { strikethrough, taskListItems } from 'turndown-plugin-gfm';
import {
  annotateDom,
  fenceFor,
  longestBacktickRun,
  MARKER_MODE,
  MARKER_TAG,
  renderAddition,
} from '@tandem/markdown';
import { codeLanguage } from './code-language';
import { absoluteUrl } from './links';
import { childElements, isGridTable } from './tables';

export interface MarkdownOptions {
  includeLinks: boolean;
  includeImages: boolean;
  /** Links and images are made absolute against it. */
  baseUrl: string;
  /**
   * The page the converted elements were copied from: aria-labelledby ids the copy lacks are
   * looked up there.
   */
  source?: Document;
}

/** Square brackets in link text and alt text would end the Markdown construct early. */
const escapeLabel = (text: string): string => text.replace(/([[\]\\])/g, '\\$1');

export function createMarkdownConverter(options: MarkdownOptions): (el: HTMLElement) => string {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    hr: '---',
  });
  service.use([strikethrough, taskListItems]);

  service.addRule('code-block', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const code = (node.textContent ?? '').replace(/\n+$/, '');
      const fence = fenceFor(code);
      return `\n\n${fence}${codeLanguage(node) ?? ''}\n${code}\n${fence}\n\n`;
    },
  });

  service.addRule('link', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content, node) => {
      if (!options.includeLinks) return content;
      const href = absoluteUrl(node.getAttribute('href'), options.baseUrl);
      const text = content.trim();
      if (!href || !text) return content;
      return `[${text}](${href.replace(/[()]/g, (c) => encodeURIComponent(c))})`;
    },
  });

  service.addRule('image', {
    filter: (node) => node.nodeName === 'IMG',
    replacement: (_content, node) => {
      if (!options.includeImages) return '';
      const src = absoluteUrl(node.getAttribute('src'), options.baseUrl);
      if (!src) return '';
      const alt = escapeLabel((node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim());
      return `![${alt}](${src.replace(/[()]/g, (c) => encodeURIComponent(c))})`;
    },
  });

  // Text that accessibility attributes carry (annotateDom below), escaped: attribute values
  // are page content. Table cells escape `|` themselves (cellText).
  service.addRule('accessible-text', {
    filter: (node) => node.nodeName.toLowerCase() === MARKER_TAG,
    replacement: (_content, node) =>
      renderAddition((node as Element).getAttribute(MARKER_MODE), node.textContent ?? ''),
  });
  // Kept by the clean clone only for their names (added after them): no text of their own.
  service.addRule('named-opaque', {
    filter: (node) => /^(?:svg|math|meta|link)$/i.test(node.nodeName),
    replacement: () => '',
  });

  // Last, so that inside table cells they win over the block rules above.
  addTableRules(service);

  const source = options.source;
  const annotate = {
    imagesShown: options.includeImages,
    // A link without text is named only when links are written: as text alone its image's alt
    // (a teaser photo, a card's title again) is bloat, as a link it is the only way to it.
    linkNames: options.includeLinks,
    byId: source ? (id: string) => source.getElementById(id) : undefined,
  };
  return (el) =>
    service
      .turndown(annotateDom(el.cloneNode(true) as HTMLElement, annotate))
      .replace(/\n{3,}/g, '\n\n')
      .trim();
}

// ---------------------------------------------------------------------------------------------
// Tables. normalizeTables (tables.ts) has given every data table one header row and rows of
// equal width; such a table (isGridTable) is written as a GFM table, its <caption> as a bold
// line before it. Any other table (layout, a single cell) is read as text: each cell a block.

const ALIGN: Record<string, string> = { left: ':--', center: ':-:', right: '--:' };

/** Inline code for a <pre> in a cell: a fence the code cannot close, on one line. */
function codeSpan(code: string): string {
  const text = code.replace(/\s+/g, ' ').trim();
  if (!text) return '';
  const fence = '`'.repeat(longestBacktickRun(text) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** One line of cell text: blocks and breaks become spaces, and a `|` cannot end the cell. */
const cellText = (content: string): string =>
  content.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');

/** Between list items in a cell: "; ", unless the item before ends with its own punctuation. */
function itemJoint(item: Element): string {
  const before = item.previousElementSibling?.textContent?.trim();
  return before && !/[,;:.!?]$/.test(before) ? '; ' : ' ';
}

function addTableRules(service: TurndownService): void {
  // Shape checks walk the table: once per table and conversion (nodes are turndown's copies).
  const grids = new WeakMap<Node, boolean>();
  const isGrid = (table: Element | null | undefined): boolean => {
    if (!table) return false;
    let grid = grids.get(table);
    if (grid === undefined) grids.set(table, (grid = isGridTable(table)));
    return grid;
  };
  // Walked by parent rather than closest(): jsdom's selector engine costs more, per cell.
  const nearest = (node: Element, tags: RegExp): Element | undefined => {
    for (let el = node.parentElement; el; el = el.parentElement)
      if (tags.test(el.nodeName)) return el;
    return undefined;
  };
  const inGrid = (node: Element): boolean => isGrid(nearest(node, /^TABLE$/));
  const inGridCell = (node: Element): boolean => {
    const cell = nearest(node, /^T[DH]$/);
    return cell ? inGrid(cell) : false;
  };

  service.addRule('table', {
    filter: ['table'],
    replacement: (content, node) => {
      if (!isGrid(node as Element)) return `\n\n${content}\n\n`;
      // Rows are lines starting with "|"; the caption line before them needs a blank line, or
      // it would be read as part of the table. Whitespace between the parts goes.
      const lines = content.split('\n').map((line) => line.trim());
      const rows = lines.filter((line) => line.startsWith('|'));
      const caption = lines.filter((line) => line && !line.startsWith('|'));
      return `\n\n${[...caption, ...(caption.length ? [''] : []), ...rows].join('\n')}\n\n`;
    },
  });
  service.addRule('table-caption', {
    filter: ['caption'],
    replacement: (content, node) => {
      if (!inGrid(node as Element)) return `\n\n${content}\n\n`;
      const text = content.replace(/\s+/g, ' ').trim();
      if (!text) return '';
      return /^\*\*.*\*\*$/.test(text) ? `\n${text}\n` : `\n**${text}**\n`;
    },
  });
  service.addRule('table-section', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  service.addRule('table-row', {
    filter: ['tr'],
    replacement: (content, node) => {
      if (!inGrid(node as Element)) return `\n\n${content}\n\n`;
      if (node.parentNode?.nodeName !== 'THEAD') return `\n${content}`;
      const border = childElements(node as Element).map(
        (cell) => ALIGN[(cell.getAttribute('align') ?? '').toLowerCase()] ?? '---',
      );
      return `\n${content}\n| ${border.join(' | ')} |`;
    },
  });
  service.addRule('table-cell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      if (!inGrid(node as Element)) return `\n\n${content}\n\n`;
      return `${(node as Element).previousElementSibling ? ' ' : '| '}${cellText(content)} |`;
    },
  });
  // Blocks in a cell: the row has one line, so their Markdown markers (list bullets, heading
  // hashes, quote marks, code fences, rules) would be text there. Items are joined with "; ".
  service.addRule('table-cell-block', {
    filter: (node) =>
      /^(?:LI|H[1-6]|BLOCKQUOTE|PRE|HR)$/.test(node.nodeName) && inGridCell(node as Element),
    replacement: (content, node) => {
      if (node.nodeName === 'PRE') return ` ${codeSpan(node.textContent ?? '')} `;
      if (node.nodeName === 'HR') return ' ';
      if (node.nodeName === 'LI') return `${itemJoint(node as Element)}${content.trim()}`;
      return ` ${content} `;
    },
  });
}
