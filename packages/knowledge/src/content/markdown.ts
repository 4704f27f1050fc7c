// HTML → Markdown for ingestion: main content (main-content.ts) and Word documents
// (extractors/docx.ts) through @tandem/markdown/dom's converter, the page snapshot's, so a
// table reads the same however it arrived. Node has no DOMParser: the HTML is parsed with
// domino, the parser turndown itself used here before.
// The ambient types must come with this file into every program that compiles it (the server
// and the benches typecheck this source too), and a .d.ts cannot be imported.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../types/domino.d.ts" />
import { createDocument } from '@mixmark-io/domino';
import { createMarkdownConverter, type MarkdownConverter } from '@tandem/markdown/dom';

export const parseHtml = (html: string): Document => createDocument(html);

let mainContent: MarkdownConverter | undefined;

/**
 * Main content's Markdown. Links are their text and images are left out: they cost tokens in
 * ingestion. The text accessibility attributes carry is already in the HTML as markers
 * (annotateTree runs before the pre-clean, which drops some of the elements holding it).
 */
export function toMarkdown(html: string): string {
  mainContent ??= createMarkdownConverter({
    includeLinks: false,
    includeImages: false,
    accessibleText: false,
    fenceLanguage: false,
    parseHtml,
  });
  try {
    return mainContent(html);
  } catch {
    return html
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  }
}
