// Table normalisation (tables.ts) and the table rules (table-rules.ts) through the converter
// over jsdom: every data table comes out as a GFM table (one header row, rows of one width).
// Inputs are the shapes pages write: no <thead>, short rows, spans, pipes and blocks in cells,
// captions, footers before bodies, layout tables, hostile spans. The page snapshot's tree and
// HTML formats, which show the same normalised rows, are tested in @tandem/page.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { createMarkdownConverter } from './converter';
import { isGridTable, normalizeTables } from './tables';

const { window } = new JSDOM('');
const parseHtml = (html: string): Document =>
  new window.DOMParser().parseFromString(html, 'text/html');
const toMarkdown = createMarkdownConverter({
  includeLinks: false,
  includeImages: false,
  parseHtml,
});

/** Cells of one GFM row: split at pipes no backslash escapes, the outer two not counted. */
const cellsOf = (line: string): string[] =>
  line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

const DELIMITER = /^\|(?: :?-+:? \|)+$/;

/** Every GFM table of a Markdown text, as its lines, each checked to read as GFM intends. */
function gfmTables(markdown: string): string[][] {
  const lines = markdown.split('\n');
  const tables: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!DELIMITER.test(lines[i + 1] ?? '')) continue;
    const start = i;
    const table: string[] = [];
    while (lines[i]?.startsWith('|')) table.push(lines[i++] as string);
    expect(lines[start - 1] ?? '', 'line before the table').toBe('');
    const width = cellsOf(table[0] as string).length;
    for (const row of table) expect(cellsOf(row), `row "${row}"`).toHaveLength(width);
    tables.push(table);
  }
  return tables;
}

/** The one GFM table of the Markdown of `html`, after a paragraph (so it starts a block). */
function onlyTable(html: string): string[] {
  const tables = gfmTables(toMarkdown(`<p>Before.</p>${html}`));
  expect(tables).toHaveLength(1);
  return tables[0] as string[];
}

describe('Markdown tables', () => {
  it('makes the first row the header of a table without <thead>', () => {
    const md = toMarkdown(
      '<table><tr><td>Name</td><td>Age</td></tr><tr><td>Ann</td><td>31</td></tr><tr><td>Bo</td><td>7</td></tr></table>',
    );
    expect(md).toBe('| Name | Age |\n| --- | --- |\n| Ann | 31 |\n| Bo | 7 |');
  });

  it('takes a first row of <th> in the body as the header too', () => {
    expect(
      onlyTable(
        '<table><tbody><tr><th>City</th><th>Pop.</th></tr><tr><td>Oslo</td><td>700k</td></tr></tbody></table>',
      ),
    ).toEqual(['| City | Pop. |', '| --- | --- |', '| Oslo | 700k |']);
  });

  it('pads short rows with empty cells to the widest row', () => {
    expect(
      onlyTable(`<table>
      <thead><tr><th>A</th><th>B</th><th>C</th></tr></thead>
      <tbody>
        <tr><td>1</td></tr>
        <tr><td>1</td><td>2</td></tr>
        <tr><td>1</td><td>2</td><td>3</td><td>4</td></tr>
      </tbody></table>`),
    ).toEqual([
      '| A | B | C |  |',
      '| --- | --- | --- | --- |',
      '| 1 |  |  |  |',
      '| 1 | 2 |  |  |',
      '| 1 | 2 | 3 | 4 |',
    ]);
  });

  it('repeats a header colspan and a rowspan over three rows into every cell they cover', () => {
    expect(
      onlyTable(`<table>
      <thead><tr><th colspan="2">Product</th><th>Price</th></tr></thead>
      <tbody>
        <tr><td rowspan="3">Fruit</td><td>Apple</td><td>1</td></tr>
        <tr><td>Pear</td><td>2</td></tr>
        <tr><td>Plum</td><td>3</td></tr>
        <tr><td>Bread</td><td colspan="2">sold out</td></tr>
      </tbody></table>`),
    ).toEqual([
      '| Product | Product | Price |',
      '| --- | --- | --- |',
      '| Fruit | Apple | 1 |',
      '| Fruit | Pear | 2 |',
      '| Fruit | Plum | 3 |',
      '| Bread | sold out | sold out |',
    ]);
  });

  it('ends a rowspan at its row group, runs rowspan=0 to the group end, merges header rows', () => {
    expect(
      onlyTable(`<table>
      <thead>
        <tr><th rowspan="2">Region</th><th colspan="2">Q1</th></tr>
        <tr><th>Jan</th><th>Feb</th></tr>
      </thead>
      <tbody><tr><td rowspan="9">North</td><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></tbody>
      <tbody><tr><td rowspan="0">South</td><td>5</td><td>6</td></tr><tr><td>7</td><td>8</td></tr></tbody>
      </table>`),
    ).toEqual([
      '| Region | Q1 Jan | Q1 Feb |',
      '| --- | --- | --- |',
      '| North | 1 | 2 |',
      '| North | 3 | 4 |',
      '| South | 5 | 6 |',
      '| South | 7 | 8 |',
    ]);
  });

  it('keeps a cell with a pipe, paragraphs, a list, a break or code in one cell', () => {
    expect(
      onlyTable(`<table>
      <tr><th>Input</th><th>Notes</th></tr>
      <tr><td>a | b</td><td><p>First.</p><p>Second</p><ul><li>x</li><li>y,</li><li>z</li></ul>line<br>break</td></tr>
      <tr><td><pre><code>grep "a|b"
  file</code></pre></td><td><h3>Heading</h3><blockquote>quoted</blockquote></td></tr>
    </table>`),
    ).toEqual([
      '| Input | Notes |',
      '| --- | --- |',
      '| a \\| b | First. Second x; y, z line break |',
      '| `grep "a\\|b" file` | Heading quoted |',
    ]);
  });

  it('writes the caption as a bold line before the table', () => {
    const md = toMarkdown(
      '<table><caption>Opening <em>hours</em></caption><tr><td>Mon</td><td>9–17</td></tr><tr><td>Sat</td><td>10–14</td></tr></table>',
    );
    expect(md).toBe('**Opening *hours***\n\n| Mon | 9–17 |\n| --- | --- |\n| Sat | 10–14 |');
  });

  it('puts <tfoot> rows after the body rows, whatever the source order', () => {
    expect(
      onlyTable(`<table>
      <thead><tr><th>Item</th><th>Cost</th></tr></thead>
      <tfoot><tr><td>Total</td><td>6</td></tr></tfoot>
      <tbody><tr><td>Pen</td><td>1</td></tr></tbody>
      <tbody><tr><td>Book</td><td>5</td></tr></tbody>
    </table>`),
    ).toEqual(['| Item | Cost |', '| --- | --- |', '| Pen | 1 |', '| Book | 5 |', '| Total | 6 |']);
  });

  it('writes a 200-row table as 200 data rows of equal width', () => {
    const rows = Array.from({ length: 200 }, (_, i) =>
      i % 10 === 3
        ? `<tr><td>row ${i + 1}</td></tr>`
        : `<tr><td>row ${i + 1}</td><td>${i * 2}</td><td>${i % 2 ? 'odd' : 'even'}</td></tr>`,
    ).join('\n');
    const table = onlyTable(
      `<table>\n<tr><td>Row</td><td>Double</td><td>Parity</td></tr>\n${rows}\n</table>`,
    );
    expect(table).toHaveLength(202);
    expect(table.slice(0, 2)).toEqual(['| Row | Double | Parity |', '| --- | --- | --- |']);
    const data = table.slice(2);
    expect(data.map((row) => cellsOf(row)[0])).toEqual(
      Array.from({ length: 200 }, (_, i) => `row ${i + 1}`),
    );
    expect(data[3]).toBe('| row 4 |  |  |');
    expect(data[199]).toBe('| row 200 | 398 | odd |');
  });

  it('leaves an ordinary table as GFM writes it, alignment included', () => {
    expect(
      onlyTable(
        '<table><thead><tr><th>Left</th><th align="right">Right</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr></tbody></table>',
      ),
    ).toEqual(['| Left | Right |', '| --- | --: |', '| a | 1 |']);
  });
});

describe('tables read as text', () => {
  it('reads a layout table holding a table cell by cell, the inner table as a GFM table', () => {
    const md = toMarkdown(`<table><tr>
      <td><p>Sidebar text</p></td>
      <td><table><tr><td>K</td><td>V</td></tr><tr><td>a</td><td>1</td></tr></table></td>
    </tr></table>`);
    expect(md).not.toContain('<table');
    expect(gfmTables(md)).toEqual([['| K | V |', '| --- | --- |', '| a | 1 |']]);
    expect(md.indexOf('Sidebar text')).toBeLessThan(md.indexOf('| K | V |'));
  });

  it('reads a single cell, a role=presentation table and an empty table as text', () => {
    const md = toMarkdown(`
      <table><tr><td>Just a boxed note.</td></tr></table>
      <table role="presentation"><tr><td>Left part</td><td>Right part</td></tr></table>
      <table></table>
      <table><caption>Nothing here</caption></table>`);
    expect(md).toBe('Just a boxed note.\n\nLeft part\n\nRight part\n\nNothing here');
  });

  it('caps spans: a 5000-column span is 1000 columns, a table that would explode is text', () => {
    const [header] = onlyTable(
      '<table><tr><td colspan="5000">wide</td></tr><tr><td>a</td><td>b</td></tr></table>',
    );
    expect(cellsOf(header as string)).toHaveLength(1000);
    // 50 rows of 1000-column spans would be 50,000 cells from 50: read as text instead.
    const hostile = toMarkdown(
      `<table>${Array.from({ length: 50 }, (_, i) => `<tr><td colspan="1000">v${i}</td></tr>`).join('')}</table>`,
    );
    expect(gfmTables(hostile)).toEqual([]);
    expect(hostile.length).toBeLessThan(2000);
    expect(hostile).toContain('v0\n\nv1\n\nv2');
  });

  it('drops the empty <form> and hidden inputs the parser leaves between rows', () => {
    expect(
      onlyTable(`<table><form action="/vote"><input type="hidden" name="id" value="7">
      <tr><td>Option</td><td>Votes</td></tr><tr><td>Yes</td><td>3</td></tr></form></table>`),
    ).toEqual(['| Option | Votes |', '| --- | --- |', '| Yes | 3 |']);
  });

  it('leaves a table with text between its rows (only a script puts it there) as it is', () => {
    const doc = parseHtml(
      '<main><table><tbody><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></tbody></table></main>',
    );
    const main = doc.querySelector('main') as HTMLElement;
    main.querySelector('tbody')?.appendChild(doc.createTextNode('stray words'));
    normalizeTables(main);
    const table = main.querySelector('table') as HTMLTableElement;
    expect(isGridTable(table)).toBe(false);
    expect(table.querySelector('thead')).toBeNull();
    expect(table.textContent).toContain('stray words');
  });
});
