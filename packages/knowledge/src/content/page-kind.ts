// What the page is, from the signals it carries: what it says of itself (JSON-LD `@type`,
// read before the pre-clean drops scripts; microdata `itemtype`; `og:type`), the shape of its
// address, how many prices its text shows and how many `<article>`/`<time>` elements it
// repeats. Rules, not a trained model: each one is measured on data/pages-dev in
// bench/content (the gold names every page's type), where the bench prints the classifier's
// accuracy (318 of 406 pages).
//
// Extraction uses three of the types it tells apart (main-content.ts): a declared article
// (an Article/NewsArticle/BlogPosting declaration is right 97 times in 111 on the dev split;
// `og:type` = article only 42 times in 63, so that alone does not make an article profile), a
// forum thread (known by the addresses forum engines give threads, or a
// DiscussionForumPosting/QAPage declaration: 38 of the 50 forum pages, none of the 356
// others), and a product page (its own profile in blocks.ts). Collection, listing and
// documentation pages keep the general profile: no other one measured better.
import { type AnyNode, type Document, type Element, isTag, isText, textOf } from './dom';

export type PageKind = 'article' | 'forum' | 'other';

/** The page types of data/pages-dev that extraction or the bench tells apart. */
export type PageType =
  'article' | 'forum' | 'product' | 'collection' | 'listing' | 'documentation' | 'other';

/**
 * Thread addresses: Discourse `/t/`, XenForo `/threads/`, IPS `/topic/`, Stack Exchange
 * `/questions/`, Reddit `/comments/`, phpBB `viewtopic.php`, vBulletin `showthread.php`, SMF
 * `?topic=`. Not `/topics/`: documentation and tag pages use it.
 */
const FORUM_URL =
  /\/(?:topic|thread|threads|t|questions|discussion|discussions|forum|forums|comments|community)\/|\/(?:viewtopic|showthread)\.php|[?&]topic=/i;
const FORUM_TYPES = new Set(['DiscussionForumPosting', 'QAPage']);

const ARTICLE_TYPES = new Set([
  'Article',
  'NewsArticle',
  'BlogPosting',
  'ReportageNewsArticle',
  'TechArticle',
  'ScholarlyArticle',
]);

/**
 * Addresses shops give one product: `/products/<name>`, `/product/…`, `/p/…`, `/pdp/…`,
 * `/ip/…` (item page), `/itm/…`, `/dp/…`, `/listing/<id>`, `/app/<id>` (a store's item).
 */
const PRODUCT_URL = /\/(?:products?|p|pdp|ip|itm|dp|pr)\/[^/]+|\/(?:listing|app)\/\d+/i;

/** Addresses shops give a category of products: `/collections/…`, `/c/…`, `/cat/…`, `/l/…`. */
const COLLECTION_URL = /\/(?:collections?|c|cat|l|browse)\/[^/]+|\/shop\/?$/i;

/**
 * Addresses of lists of stories or entries: a section or category, a hub, a tag, a chart, a
 * list. (A `/category/` address on a shop is caught by its prices first.)
 */
const LISTING_URL =
  /\/(?:sections?|category|categories|hub|tag|tags|topics|chart|list|lists|issues)\//i;

/** A price shown in the text: a currency sign or code beside a number. */
const PRICE = /(?:[$€£¥]|\b(?:USD|EUR|GBP|AUD|CAD)\s?)\s?\d[\d,.]*|\d[\d,.]*\s?(?:€|\bEUR\b)/g;

/** How many prices a text shows. */
export const pricesIn = (text: string): number => text.match(PRICE)?.length ?? 0;

/** This many prices in the text make a page of many products, with no declaration saying so. */
const COLLECTION_PRICES = 20;

/** This many products declared, outside a product group's variants, make a collection… */
const COLLECTION_PRODUCTS = 20;
/** …or this many in a declared list of items. */
const LISTED_PRODUCTS = 5;
/** A declared list of this many items (not products) is a listing. */
const LISTED_ITEMS = 10;
/** This many `<article>` or `<time>` elements are a list of stories. */
const LISTED_STORIES = 5;

/** `og:type` of one product: `product`, `product.item`, a shop's own `…:product`, `…:item`. */
const PRODUCT_OG = /(?:^|[.:])(?:product|item)$/;

/** Documentation: a `docs.` host, a `/docs/` section, a language's reference or book. */
const DOCS_URL =
  /^https?:\/\/(?:docs?|developer)\.|\/(?:docs?|documentation|reference|ref|library|std|book|guide|userguide|manual)\//i;

/** Pages of a service or a software product: `/services/…`, `/solutions/…`, `/features/…`. */
const SERVICE_URL = /\/(?:services?|solutions?|features?|pricing|programs?)\/|^\/?$/i;

export interface PageSignals {
  /** Every `@type` of the page's JSON-LD and microdata, with how often it is declared. */
  types: Map<string, number>;
  /** `og:type`, lower case, or ''. */
  ogType: string;
  /** The JSON-LD scripts' text (an article's `articleBody`). */
  jsonLd: string[];
  /** Prices shown in the page's text (not in scripts or styles). */
  prices: number;
  /** `<article>` and `<time>` elements: a list of stories repeats both. */
  articles: number;
  times: number;
}

const TYPE_VALUE = /"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")/g;
const NAME = /"([^"]+)"/g;
const NOT_TEXT = new Set(['script', 'style', 'template', 'noscript', 'svg']);

function count(types: Map<string, number>, name: string): void {
  types.set(name, (types.get(name) ?? 0) + 1);
}

/** One walk over the page: declarations, `og:type` and prices. */
export function pageSignals(doc: Document): PageSignals {
  const signals: PageSignals = {
    types: new Map(),
    ogType: '',
    jsonLd: [],
    prices: 0,
    articles: 0,
    times: 0,
  };
  const visit = (nodes: AnyNode[]): void => {
    for (const node of nodes) {
      if (isText(node)) {
        signals.prices += pricesIn(node.data);
        continue;
      }
      if (!isTag(node)) continue;
      visitElement(node);
    }
  };
  const visitElement = (el: Element): void => {
    const a = el.attribs;
    if (el.name === 'article') signals.articles++;
    else if (el.name === 'time') signals.times++;
    if (a.itemtype) for (const t of a.itemtype.split(/\s+/)) count(signals.types, lastSegment(t));
    if (el.name === 'meta' && (a.property ?? a.name)?.toLowerCase() === 'og:type')
      signals.ogType = (a.content ?? '').trim().toLowerCase();
    if (el.name === 'script' && a.type?.toLowerCase() === 'application/ld+json') {
      const ld = textOf(el);
      signals.jsonLd.push(ld);
      for (const [, value] of ld.matchAll(TYPE_VALUE))
        for (const [, name] of (value ?? '').matchAll(NAME)) count(signals.types, name ?? '');
      return;
    }
    if (NOT_TEXT.has(el.name)) return;
    visit(el.children);
  };
  visit(doc.children);
  return signals;
}

const lastSegment = (url: string): string => url.replace(/\/+$/, '').split('/').pop() ?? '';

const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
};

const declares = (signals: PageSignals, names: Set<string>): boolean =>
  [...names].some((name) => signals.types.has(name));

/** The page's type, by the first rule that applies (bench/content prints its accuracy). */
export function classifyPage(signals: PageSignals, url = ''): PageType {
  const { types, ogType, prices } = signals;
  const path = pathOf(url);
  if (FORUM_URL.test(url) || declares(signals, FORUM_TYPES)) return 'forum';
  const article = declares(signals, ARTICLE_TYPES);
  const products = types.get('Product') ?? 0;
  const group = types.has('ProductGroup');
  if (ogType === 'product.group') return 'collection';
  // A review or buying guide declares the products it names beside its article.
  if (!article) {
    if (products >= LISTED_PRODUCTS && (types.has('ItemList') || types.has('CollectionPage')))
      return 'collection';
    // A product group's variants are declared as products too: one product all the same.
    if (products >= COLLECTION_PRODUCTS && !group) return 'collection';
    if (products > 0 || group || PRODUCT_OG.test(ogType)) return 'product';
  }
  if (DOCS_URL.test(url) || types.has('TechArticle')) return 'documentation';
  if (article) return 'article';
  if (PRODUCT_URL.test(path)) return 'product';
  if (COLLECTION_URL.test(path) || prices >= COLLECTION_PRICES) return 'collection';
  if (types.has('CollectionPage') || (types.get('ListItem') ?? 0) >= LISTED_ITEMS) return 'listing';
  if (LISTING_URL.test(path)) return 'listing';
  if (signals.articles >= LISTED_STORIES || signals.times >= LISTED_STORIES) return 'listing';
  if (SERVICE_URL.test(path)) return 'other';
  return 'article';
}

/** The profile extraction uses: a declared article, a forum thread, or anything else. */
export function pageKind(signals: PageSignals, url = ''): PageKind {
  if (FORUM_URL.test(url) || declares(signals, FORUM_TYPES)) return 'forum';
  return declares(signals, ARTICLE_TYPES) ? 'article' : 'other';
}

function findArticleBody(value: unknown): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findArticleBody(item);
      if (found) return found;
    }
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  if (typeof record.articleBody === 'string' && record.articleBody.trim())
    return record.articleBody;
  for (const child of Object.values(record)) {
    if (child && typeof child === 'object') {
      const found = findArticleBody(child);
      if (found) return found;
    }
  }
  return null;
}

/**
 * The article's text as its JSON-LD declares it (`articleBody`), or null. Used only when the
 * visible text is missing (an article rendered by scripts from that data): the declaration
 * is the site's own copy of the story.
 */
export function declaredArticleBody(signals: PageSignals): string | null {
  for (const ld of signals.jsonLd) {
    if (!ld.includes('"articleBody"')) continue;
    try {
      const found = findArticleBody(JSON.parse(ld));
      if (found) return found;
    } catch {
      // Malformed JSON-LD (trailing commas, HTML entities) declares nothing usable.
    }
  }
  return null;
}
