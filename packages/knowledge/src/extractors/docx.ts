import mammoth from 'mammoth';
import TurndownService from 'turndown';
import type { HandlerResult } from './extract';

const cellText = (cell: Element): string =>
  (cell.textContent ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');

/** Word tables become GFM tables (first row as header) so a chunk keeps rows and columns aligned. */
function tableToMarkdown(table: Element): string {
  const rows = Array.from(table.querySelectorAll('tr')).map((row) =>
    Array.from(row.children).map((cell) => cellText(cell)),
  );
  const width = Math.max(0, ...rows.map((row) => row.length));
  if (width === 0) return '';
  const line = (row: string[]) =>
    `| ${Array.from({ length: width }, (_, index) => row[index] ?? '').join(' | ')} |`;
  const [header = [], ...body] = rows;
  const separator = `| ${Array.from({ length: width }, () => '---').join(' | ')} |`;
  return `\n\n${[line(header), separator, ...body.map(line)].join('\n')}\n\n`;
}

function converter(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '*',
  });
  service.addRule('table', {
    filter: 'table',
    replacement: (_content, node) => tableToMarkdown(node as Element),
  });
  return service;
}

/**
 * mammoth maps Word styles to semantic HTML (headings, lists, tables); its own Markdown
 * output is deprecated, so turndown writes the Markdown. Images are dropped: their bytes
 * would bloat the text and OCR of embedded images is a separate step.
 */
export async function extractDocx(bytes: Uint8Array): Promise<HandlerResult> {
  const result = await mammoth.convertToHtml(
    { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
    { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) },
  );
  const markdown = converter()
    .remove('img')
    .turndown(result.value)
    // turndown pads list markers to four columns; one space is what Markdown writers use.
    .replace(/^(\s*)(-|\d+\.)\s{2,}/gm, '$1$2 ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const warnings = result.messages.map((message) => message.message);
  const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
  return { markdown, warnings, ...(title ? { title } : {}) };
}
