// Table normalisation (@tandem/markdown/dom) through content mode over jsdom: the HTML and tree
// formats get the rows of equal width the Markdown converter writes as a GFM table. The table
// rules themselves (spans, short rows, header rows, captions, layout and hostile tables) are
// tested where they live, in @tandem/markdown (src/dom/tables.test.ts).
import type { SnapshotFormat } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { gfmTables } from '../../test/helpers/gfm';
import { parseHtml, releaseDocument, snapshotHtml } from '../server';

const page = (body: string): string =>
  `<!doctype html><html><head><title>Tables</title></head><body><main><h1>Data</h1>${body}<p>After the table.</p></main></body></html>`;

/** The rendered sections: the text between the header comments and the closing one. */
function content(body: string, format: SnapshotFormat = 'markdown'): string {
  const text = snapshotHtml(page(body), { mode: 'content', format, url: 'https://example.com/t' });
  const lines = text.split('\n');
  return format === 'tree' ? lines.slice(3).join('\n') : lines.slice(2, -1).join('\n').trim();
}

/** The one GFM table of a Markdown text. */
function onlyTable(markdown: string): string[] {
  const tables = gfmTables(markdown);
  expect(tables, markdown).toHaveLength(1);
  return tables[0] as string[];
}

describe('Markdown tables', () => {
  // The converter's own table cases are @tandem/markdown's (src/dom/tables.test.ts); this one
  // checks the wiring: content mode normalises its clean clone before the converter reads it.
  it('makes the first row the header of a table without <thead>', () => {
    const md = content(
      '<table><tr><td>Name</td><td>Age</td></tr><tr><td>Ann</td><td>31</td></tr><tr><td>Bo</td><td>7</td></tr></table>',
    );
    expect(md).not.toContain('<table');
    expect(onlyTable(md)).toEqual([
      '| Name | Age |',
      '| --- | --- |',
      '| Ann | 31 |',
      '| Bo | 7 |',
    ]);
  });
});

describe('HTML and tree formats', () => {
  const SOURCE = `<table id="t"><caption>Stock</caption>
    <tfoot><tr><td>Total</td><td>9</td></tr></tfoot>
    <tr><td>Item</td><td>Count</td></tr>
    <tr><td rowspan="2" id="fruit">Fruit</td><td>4</td></tr>
    <tr><td>5</td></tr>
    <tr><td>Nuts</td></tr>
  </table>`;

  it('HTML: a <thead> of <th>, spans expanded, rows padded, footer last', () => {
    const html = content(SOURCE, 'html');
    const doc = parseHtml(html);
    try {
      const table = doc.querySelector('table');
      expect(table).not.toBeNull();
      const parts = [...(table as HTMLTableElement).children].map((el) => el.localName);
      expect(parts).toEqual(['caption', 'thead', 'tbody', 'tfoot']);
      const rows = [...doc.querySelectorAll('tr')].map((row) =>
        [...row.children].map((cell) => `${cell.localName}:${cell.textContent?.trim()}`),
      );
      expect(rows).toEqual([
        ['th:Item', 'th:Count'],
        ['td:Fruit', 'td:4'],
        ['td:Fruit', 'td:5'],
        ['td:Nuts', 'td:'],
        ['td:Total', 'td:9'],
      ]);
      expect(doc.querySelectorAll('[colspan], [rowspan]')).toHaveLength(0);
      // The repeated cell is a copy: the id stays on the page's own cell only.
      expect(doc.querySelectorAll('#fruit')).toHaveLength(1);
    } finally {
      releaseDocument(doc);
    }
  });

  it('tree: rows of equal width with the spanned value repeated, footer last', () => {
    expect(content(SOURCE, 'tree')).toContain(
      [
        '  TABLE "Stock" [5 rows, 2 columns]',
        '    | Item | Count |',
        '    | Fruit | 4 |',
        '    | Fruit | 5 |',
        '    | Nuts |  |',
        '    | Total | 9 |',
      ].join('\n'),
    );
  });

  it('tree: a single cell is text, not a one-cell table', () => {
    const tree = content('<table><tr><td>Boxed note</td></tr></table>', 'tree');
    expect(tree).toContain('  TEXT "Boxed note"');
    expect(tree).not.toContain('TABLE');
  });

  it('counts a repeated value once per cell it fills, and cells stay separate words', () => {
    const text = snapshotHtml(
      page(`<table>
        <tr>
          <td>alpha</td>
          <td colspan="2">beta</td>
        </tr>
        <tr>
          <td>gamma</td>
        </tr>
      </table>`),
      { mode: 'content', format: 'markdown' },
    );
    // Data, alpha, beta, beta, gamma, After, the, table: the copy of "beta" is a word it shows.
    expect(text).toMatch(/<!-- end: 8 words extracted -->$/);
  });
});
