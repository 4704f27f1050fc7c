// Turndown rules for tables. normalizeTables (tables.ts) has given every data table one header
// row and rows of equal width; such a table (isGridTable) is written as a GFM table, its
// <caption> as a bold line before it. Any other table (layout, a single cell) is read as text:
// each cell a block. The rules are ours rather than turndown-plugin-gfm's: the plugin keeps a
// table without an all-<th> first row as raw HTML, writes rows of any width, lets a `|` or a
// paragraph in a cell break the row, and throws on a table without rows.
import type TurndownService from 'turndown';
import { longestBacktickRun } from '../fence';
import { childElements, isGridTable } from './tables';

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

// Filters compare nodeName (upper case in an HTML document) rather than name lists: turndown
// lower-cases the name once per listed rule and node, and these rules are tried on every node.
export function addTableRules(service: TurndownService): void {
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
    filter: (node) => node.nodeName === 'TABLE',
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
    filter: (node) => node.nodeName === 'CAPTION',
    replacement: (content, node) => {
      if (!inGrid(node as Element)) return `\n\n${content}\n\n`;
      const text = content.replace(/\s+/g, ' ').trim();
      if (!text) return '';
      return /^\*\*.*\*\*$/.test(text) ? `\n${text}\n` : `\n**${text}**\n`;
    },
  });
  service.addRule('table-section', {
    filter: (node) => /^T(?:HEAD|BODY|FOOT)$/.test(node.nodeName),
    replacement: (content) => content,
  });
  service.addRule('table-row', {
    filter: (node) => node.nodeName === 'TR',
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
    filter: (node) => node.nodeName === 'TD' || node.nodeName === 'TH',
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
