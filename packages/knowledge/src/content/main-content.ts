// Main-content extraction for HTML ingestion (issue 18 item 1, spec 003 Smart Ingestion):
// cheerio pre-clean, Readability, and a fallback for pages where Readability keeps too
// little of the page (product pages, listings, collections, forums). Measured by
// bench/content on data/pages-dev; the thresholds below were picked there.
import { Readability } from '@mozilla/readability';
import { parseHtml, releaseDocument } from '@tandem/page/server';
import { toMarkdown } from './markdown';
import { preClean } from './pre-clean';

export interface MainContent {
  title: string;
  markdown: string;
  /** Plain text of the main content, words separated by single spaces. */
  text: string;
  /** Which path produced it: Readability's article, or the cleaned page's main region. */
  method: 'readability' | 'fallback';
}

export interface MainContentOptions {
  url?: string;
  /** Share of the cleaned page's text Readability must keep to be used (default 0.45). */
  minReadabilityShare?: number;
}

/**
 * Below this share of the cleaned page's text, Readability is taken to have kept one block of
 * a page that has several (measured on pages-dev: product/listing pages where it keeps a
 * description and drops the specs or the items).
 */
const MIN_READABILITY_SHARE = 0.45;

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Text from the Markdown, so that blocks stay separated by spaces (textContent joins them). */
const plainText = (markdown: string): string => squash(markdown.replace(/[#*_`>|]+|-{3,}/g, ' '));

function setBase(doc: Document, url: string | undefined): void {
  if (!url || !doc.head) return;
  const base = doc.createElement('base');
  base.setAttribute('href', url);
  doc.head.prepend(base);
}

function mainRegion(doc: Document): HTMLElement | null {
  const main = doc.querySelector<HTMLElement>('main, [role="main"]');
  if (main && squash(main.textContent ?? '').length > 200) return main;
  return doc.body;
}

function fallback(doc: Document, title: string): MainContent {
  const region = mainRegion(doc);
  const markdown = region ? toMarkdown(region) : '';
  return { title, markdown, text: plainText(markdown), method: 'fallback' };
}

export function extractMainContent(html: string, options: MainContentOptions = {}): MainContent {
  const doc = parseHtml(preClean(html));
  try {
    setBase(doc, options.url);
    const pageText = squash(doc.body?.textContent ?? '');
    const title = squash(doc.title);
    const clone = doc.cloneNode(true) as Document;
    const article = new Readability(clone, { keepClasses: false }).parse();
    const articleText = squash(article?.textContent ?? '');
    if (
      article?.content &&
      articleText.length >= (options.minReadabilityShare ?? MIN_READABILITY_SHARE) * pageText.length
    ) {
      const markdown = toMarkdown(article.content);
      const articleTitle = squash(article.title ?? '') || title;
      return { title: articleTitle, markdown, text: plainText(markdown), method: 'readability' };
    }
    return fallback(doc, squash(article?.title ?? '') || title);
  } finally {
    releaseDocument(doc);
  }
}
