export { checkHtml, parseHtmlWithinBudget, type HtmlStats } from './html-budget';
export { digestHtml, HTML_DIGEST_MAX } from './html-digest';
export { annotateTree } from './accessible-text-tree';
