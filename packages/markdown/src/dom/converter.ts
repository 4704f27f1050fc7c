// HTML → Markdown over the W3C DOM, for every converter of the system: the page snapshot's
// content mode (in the page, and over jsdom on the server), ingestion's main content and Word
// documents (over domino). One turndown setup, so a table, a code block or an accessible name
// comes out the same whichever way a text arrived: GFM tables from normalised grids
// (tables.ts, table-rules.ts), fenced code with the language the page declares, and links and
// images only when asked (they cost tokens and are often noise).
// DOM-only and without Node built-ins: the extension bundles this file.
// The ambient types must come with this file into every program that compiles it (the
// extension and the server typecheck this source too), and a .d.ts cannot be imported.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../types/turndown-plugin-gfm.d.ts" />
import TurndownService from 'turndown';
import { strikethrough, taskListItems } from 'turndown-plugin-gfm';
import { annotateDom, MARKER_MODE, MARKER_TAG, renderAddition } from '../accessible-text';
import { fenceFor } from '../fence';
import { codeLanguage } from './code-language';
import { addTableRules } from './table-rules';
import { normalizeTables } from './tables';
import { absoluteUrl } from './urls';

export interface MarkdownOptions {
  /** Links as `[text](url)`; without it a link is its text. */
  includeLinks: boolean;
  /** Images as `![alt](src)`; without it they are left out. */
  includeImages: boolean;
  /** Links and images are made absolute against it (default about:blank: absolute ones only). */
  baseUrl?: string;
  /**
   * The page the converted elements were copied from: aria-labelledby ids the copy lacks are
   * looked up there.
   */
  source?: Document;
  /**
   * Add the text accessibility attributes carry (annotateDom), default true. Ingestion turns
   * it off: it finds that text on its htmlparser2 tree before its pre-clean drops the elements
   * holding some of it (annotateTree), so the markers arrive already in place.
   */
  accessibleText?: boolean;
  /**
   * Normalise tables (normalizeTables) on the converter's own copy first, default true. The
   * page snapshot turns it off: it normalises its clean clone itself, since its tree and HTML
   * formats show the same rows.
   */
  normalizeTables?: boolean;
  /**
   * Write the language the page declares on a code block's fence (default true). Ingestion
   * turns it off: its main-content F1 (bench:content) reads the info string as a word of the
   * text, which cost 0.0002 F1 on data/pages-dev, and its chunks were stored without one.
   */
  fenceLanguage?: boolean;
  /**
   * How a string input is parsed. Default: the global DOMParser (a page, a service worker's
   * offscreen document). Node has none; callers there pass one (domino, jsdom).
   */
  parseHtml?: (html: string) => Document;
}

/** Converts an element (copied first, never changed) or an HTML fragment to Markdown. */
export type MarkdownConverter = (input: Element | string) => string;

/** The marker's nodeName in an HTML document, compared on every node. */
const MARKER_NAME = MARKER_TAG.toUpperCase();

/** Square brackets in link text and alt text would end the Markdown construct early. */
const escapeLabel = (text: string): string => text.replace(/([[\]\\])/g, '\\$1');

/** Wraps a fragment as turndown does, so the parser keeps it in one element. */
const ROOT_ID = 'tandem-markdown-root';

function defaultParse(html: string): Document {
  if (typeof DOMParser === 'undefined')
    throw new Error('createMarkdownConverter: no DOMParser here; pass options.parseHtml');
  return new DOMParser().parseFromString(html, 'text/html');
}

/**
 * turndown copies any node it is given (cloneNode(true)) so as not to change the caller's
 * tree. The converter hands it a root that is already its own copy, and that second copy was
 * 15 % of main-content extraction's CPU time on pages-dev (the copy and its garbage). turndown
 * accepts anything with a node type and asks it for its copy: this handle answers with the root
 * itself, so the conversion works on it in place. converter.test.ts checks that no copy is made.
 */
const alreadyCopied = (root: Element): HTMLElement =>
  ({ nodeType: 11, cloneNode: () => root }) as unknown as HTMLElement;

function createService(options: MarkdownOptions): TurndownService {
  const baseUrl = options.baseUrl ?? 'about:blank';
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    hr: '---',
  });
  service.use([strikethrough, taskListItems]);

  // Every <pre> is code, kept verbatim. turndown fences only <pre><code>; the <pre> of Sphinx
  // and Pygments (<pre><span>…) came out as escaped prose (`def create\_user(…)`).
  service.addRule('code-block', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const code = (node.textContent ?? '').replace(/\n+$/, '');
      const fence = fenceFor(code);
      const language = (options.fenceLanguage ?? true) ? (codeLanguage(node) ?? '') : '';
      return `\n\n${fence}${language}\n${code}\n${fence}\n\n`;
    },
  });

  service.addRule('link', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content, node) => {
      if (!options.includeLinks) return content;
      const href = absoluteUrl(node.getAttribute('href'), baseUrl);
      const text = content.trim();
      if (!href || !text) return content;
      return `[${text}](${href.replace(/[()]/g, (c) => encodeURIComponent(c))})`;
    },
  });

  service.addRule('image', {
    filter: (node) => node.nodeName === 'IMG',
    replacement: (_content, node) => {
      if (!options.includeImages) return '';
      const src = absoluteUrl(node.getAttribute('src'), baseUrl);
      if (!src) return '';
      const alt = escapeLabel((node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim());
      return `![${alt}](${src.replace(/[()]/g, (c) => encodeURIComponent(c))})`;
    },
  });

  // Text that accessibility attributes carry (annotateDom, annotateTree), escaped: attribute
  // values are page content. Table cells escape `|` themselves (cellText).
  service.addRule('accessible-text', {
    filter: (node) => node.nodeName === MARKER_NAME,
    replacement: (_content, node) =>
      renderAddition((node as Element).getAttribute(MARKER_MODE), node.textContent ?? ''),
  });
  // Kept by the clean clone only for their names (added after them): no text of their own.
  service.addRule('named-opaque', {
    filter: (node) => /^(?:svg|math|meta|link)$/i.test(node.nodeName),
    replacement: () => '',
  });

  // Last, so that inside table cells they win over the block rules above.
  addTableRules(service);
  return service;
}

export function createMarkdownConverter(options: MarkdownOptions): MarkdownConverter {
  const service = createService(options);
  const parse = options.parseHtml ?? defaultParse;
  const source = options.source;
  const annotate = {
    imagesShown: options.includeImages,
    // A link without text is named only when links are written: as text alone its image's alt
    // (a teaser photo, a card's title again) is bloat, as a link it is the only way to it.
    linkNames: options.includeLinks,
    byId: source ? (id: string) => source.getElementById(id) : undefined,
  };

  /** A copy the conversion may change: a fresh parse, or a clone of the caller's element. */
  const ownCopy = (input: Element | string): Element => {
    if (typeof input !== 'string') return input.cloneNode(true) as Element;
    const doc = parse(`<x-turndown id="${ROOT_ID}">${input}</x-turndown>`);
    return doc.getElementById(ROOT_ID) ?? doc.body ?? doc.documentElement;
  };

  return (input) => {
    const root = ownCopy(input);
    // HTML without a <table> tag parses to none: the walk for tables is skipped (most main
    // content has none, and the walk visits every element).
    const mayHaveTables = typeof input !== 'string' || /<table/i.test(input);
    if ((options.normalizeTables ?? true) && mayHaveTables) normalizeTables(root);
    if (options.accessibleText ?? true) annotateDom(root, annotate);
    return service
      .turndown(alreadyCopied(root))
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  };
}
