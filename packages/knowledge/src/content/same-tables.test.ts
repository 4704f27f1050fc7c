// One table, three ways in: a page's content snapshot (@tandem/page), a crawled page's main
// content and a Word document all go through @tandem/markdown/dom's converter, so a table
// with spans and one without a header row come out as the same GFM table. Before, the three
// had their own setups: main content kept a header-less table as cells of text, DOCX dropped
// spans, the snapshot repeated them.
import { Document, Packer, Paragraph, Table, TableCell, TableRow, VerticalMergeType } from 'docx';
import { snapshotHtml } from '@tandem/page/server';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../extractors/extract';
import { extractMainContent } from './main-content';

const SPANNED = {
  html: `<table>
    <tr><td colspan="2">Product</td><td>Price</td></tr>
    <tr><td rowspan="2">Fruit</td><td>Apple</td><td>1</td></tr>
    <tr><td>Pear</td><td>2</td></tr>
  </table>`,
  markdown: [
    '| Product | Product | Price |',
    '| --- | --- | --- |',
    '| Fruit | Apple | 1 |',
    '| Fruit | Pear | 2 |',
  ],
};

const HEADERLESS = {
  html: `<table>
    <tr><td>Drug</td><td>Dose</td></tr>
    <tr><td>Aspirin</td><td>75 mg</td></tr>
    <tr><td>Ibuprofen</td><td>200 mg | 400 mg</td></tr>
  </table>`,
  markdown: [
    '| Drug | Dose |',
    '| --- | --- |',
    '| Aspirin | 75 mg |',
    '| Ibuprofen | 200 mg \\| 400 mg |',
  ],
};

const PROSE =
  'The shop lists what it sells this week with prices, and the pharmacy lists the usual doses of the common painkillers, each in a table below this paragraph.';

const pageHtml = (table: string): string =>
  `<!doctype html><html><head><title>Tables</title></head><body><nav><a href="/">Home</a></nav>
<main><h1>Tables</h1><p>${PROSE}</p>${table}<p>${PROSE}</p></main></body></html>`;

/** The lines of the Markdown's tables. */
const tableLines = (markdown: string): string[] =>
  markdown.split('\n').filter((line) => line.startsWith('|'));

function fromSnapshot(table: string): string[] {
  const url = 'https://shop.example/t';
  return tableLines(snapshotHtml(pageHtml(table), { mode: 'content', format: 'markdown', url }));
}

const fromMainContent = (table: string): string[] =>
  tableLines(extractMainContent(pageHtml(table)).markdown);

const cell = (text: string, options: Partial<ConstructorParameters<typeof TableCell>[0]> = {}) =>
  new TableCell({ ...options, children: [new Paragraph(text)] });

/** The same two tables written by Word: a column span, a vertical merge, no header row. */
async function fromDocx(): Promise<string[]> {
  const row = (...cells: TableCell[]) => new TableRow({ children: cells });
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph(PROSE),
          new Table({
            rows: [
              row(cell('Product', { columnSpan: 2 }), cell('Price')),
              row(
                cell('Fruit', { verticalMerge: VerticalMergeType.RESTART }),
                cell('Apple'),
                cell('1'),
              ),
              row(cell('', { verticalMerge: VerticalMergeType.CONTINUE }), cell('Pear'), cell('2')),
            ],
          }),
          new Paragraph(PROSE),
          new Table({
            rows: [
              row(cell('Drug'), cell('Dose')),
              row(cell('Aspirin'), cell('75 mg')),
              row(cell('Ibuprofen'), cell('200 mg | 400 mg')),
            ],
          }),
        ],
      },
    ],
  });
  const bytes = new Uint8Array(await Packer.toBuffer(document));
  const result = await extractDocument(bytes, { mimeType: 'application/octet-stream' });
  return tableLines(result.markdown);
}

describe('the same table Markdown from every converter', () => {
  it.each([
    ['a table with a column span and a row span', SPANNED],
    ['a table without a header row', HEADERLESS],
  ])('%s', (_what, { html, markdown }) => {
    expect(fromSnapshot(html)).toEqual(markdown);
    expect(fromMainContent(html)).toEqual(markdown);
  });

  it('gives a Word document the tables a page gets', async () => {
    expect(await fromDocx()).toEqual([...SPANNED.markdown, ...HEADERLESS.markdown]);
  });
});
