// @tandem/markdown/dom: HTML → Markdown over the W3C DOM (a page, jsdom, domino), the one
// converter of the page snapshot, ingestion's main content and Word documents. Browser-safe:
// no Node built-ins, as the extension bundles it.
export { createMarkdownConverter, type MarkdownConverter, type MarkdownOptions } from './converter';
export { childElements, isGridTable, normalizeTables } from './tables';
export { codeLanguage, codeLines } from './code-language';
export { absoluteUrl } from './urls';
