import { checkLimit, DEFAULT_INPUT_LIMITS, type InputLimits } from '@tandem/contracts';
import mammoth from 'mammoth';
import { createMarkdownConverter, type MarkdownConverter } from '@tandem/markdown/dom';
import { parseHtml } from '../content/markdown';
import type { HandlerResult } from './extract';
import { storedZip, unzipWithinBudget } from './zip';

let converter: MarkdownConverter | undefined;

/**
 * The converter pages use, so a Word table (spans, a header row or none) is written as a page's
 * is. Links are kept: a document's hyperlinks are part of what it says, and its internal ones
 * (#_Toc…) are not URLs, so they stay text. No accessible-text pass: mammoth writes no ARIA.
 */
const toMarkdown = (html: string): string =>
  (converter ??= createMarkdownConverter({
    includeLinks: true,
    includeImages: false,
    accessibleText: false,
    parseHtml,
  }))(html);

/**
 * The parts mammoth parses: XML parts, their relationships and its own embedded style map
 * (`mammoth/style-map`, no extension). Images, fonts and embedded files are counted against the
 * budget but not kept, since images are dropped below and mammoth reads nothing else.
 */
const isParsedPart = (name: string): boolean =>
  /\.(?:xml|rels)$/i.test(name) || !/\.[^/]*$/.test(name);

/**
 * mammoth maps Word styles to semantic HTML (headings, lists, tables); its own Markdown
 * output is deprecated, so turndown writes the Markdown. Images are dropped: their bytes
 * would bloat the text and OCR of embedded images is a separate step.
 * mammoth (JSZip) inflates whole parts in memory with no bound, so the archive is first read as
 * a stream within ZIP_MAX_UNCOMPRESSED_MB and ZIP_MAX_RATIO, and mammoth gets those bytes.
 */
export async function extractDocx(
  bytes: Uint8Array,
  { limits = DEFAULT_INPUT_LIMITS }: { limits?: InputLimits } = {},
): Promise<HandlerResult> {
  const parts = await unzipWithinBudget(bytes, limits, isParsedPart, 'DOCX');
  // mammoth costs about 75 MB and a second per MB of XML: 61 MB of it, within the ZIP budgets
  // at 6× compression, ran the parse thread out of memory after 12 s. Refused at once instead.
  const xmlBytes = parts.reduce((sum, part) => sum + part.data.byteLength, 0);
  checkLimit(
    limits,
    'docxMaxXmlMb',
    Math.ceil((xmlBytes / (1024 * 1024)) * 10) / 10,
    "The Word document's text and markup come to",
  );
  const archive = storedZip(parts);
  const result = await mammoth.convertToHtml(
    { buffer: Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength) },
    { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) },
  );
  const markdown = toMarkdown(result.value)
    // turndown pads list markers to four columns; one space is what Markdown writers use.
    // The indent is [ \t]*, not \s*: \s spans newlines, so on a long run of blank (or
    // non-breaking-space) lines every line start re-read the whole run, quadratic in its length.
    .replace(/^([ \t]*)(-|\d+\.)\s{2,}/gm, '$1$2 ');
  const warnings = result.messages.map((message) => message.message);
  const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
  return { markdown, warnings, ...(title ? { title } : {}) };
}
