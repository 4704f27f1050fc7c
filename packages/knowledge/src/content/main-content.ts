// Main-content extraction for HTML ingestion (docs/specs.md, "ingestion pipeline"):
// htmlparser2 parse, pre-clean, block scoring (blocks.ts), turndown. Measured by
// bench/content on data/pages-dev; the rules and thresholds were picked there.
import type { InputLimits } from '@tandem/contracts';
import { annotateTree } from '@tandem/markdown/html';
import {
  ARTICLE,
  GENERAL,
  PRODUCT,
  type Profile,
  type Scores,
  scoreBlocks,
  bestElement,
  prune,
} from './blocks';
import {
  type Document,
  type Element,
  findFirst,
  outerHtml,
  parse,
  separateElements,
  squash,
  textOf,
  weight,
} from './dom';
import { toMarkdown } from './markdown';
import {
  classifyPage,
  declaredArticleBody,
  pageKind,
  pageSignals,
  type PageSignals,
  type PageType,
} from './page-kind';
import { postsOf } from './posts';
import { dropPricedTeasers } from './product';
import { preClean } from './pre-clean';

export interface MainContent {
  title: string;
  markdown: string;
  /** Plain text of the main content, words separated by single spaces. */
  text: string;
  /** Which path produced it: the best-scoring block of the page, or the whole body. */
  method: 'blocks' | 'body';
  /** What the page is, by its signals (page-kind.ts): its declarations, address and prices. */
  pageType: PageType;
}

export interface MainContentOptions {
  /** Where the page came from: a forum thread is known by its address (page-kind.ts). */
  url?: string;
  /**
   * Keep content hidden by markup (`hidden`, inline `display: none`), default true: SPA tabs
   * and accordions (phase 1 of docs/specs.md, "two-phase SPA ingestion"). Phase 2 passes false:
   * only what is shown counts.
   */
  preserveHidden?: boolean;
  /** The HTML budgets, counted while the page is parsed (the server's parse pool sets them). */
  limits?: InputLimits;
}

/** Text from the Markdown, so that blocks stay separated by spaces (textContent joins them). */
const plainText = (markdown: string): string => squash(markdown.replace(/[#*_`>|]+|-{3,}/g, ' '));

function pageTitle(doc: Document): string {
  const title = findFirst(doc.children, (el) => el.name === 'title');
  const h1 = findFirst(doc.children, (el) => el.name === 'h1');
  return squash(textOf(title ?? h1 ?? []));
}

/** Comment sections go when the best block without them keeps this share of the score… */
const COMMENTS_KEEP_SHARE = 0.3;
/** …and this much text (non-space characters): an article under its comments. */
const COMMENTS_MIN_MAIN = 2000;

function detach(nodes: Element[]): () => void {
  const parents = new Map<Element | Document, Element['children']>();
  for (const node of nodes) {
    const parent = node.parent as Element | Document | null;
    if (!parent) continue;
    if (!parents.has(parent)) parents.set(parent, parent.children);
    parent.children = parent.children.filter((c) => c !== node);
  }
  return () => {
    for (const [parent, children] of parents) parent.children = children;
  };
}

/** Scores the page, without its comment sections if it has main content without them. */
function scorePage(doc: Document, comments: Element[], profile: Profile): [Scores, Element | null] {
  const scores = scoreBlocks(doc, profile);
  const best = bestElement(scores, profile.nearTop);
  if (comments.length === 0 || !best) return [scores, best];
  const restore = detach(comments);
  const without = scoreBlocks(doc, profile);
  const alone = bestElement(without, profile.nearTop);
  const before = scores.stats.get(best)?.value ?? 0;
  const after = alone ? without.stats.get(alone) : undefined;
  if (after && after.value >= COMMENTS_KEEP_SHARE * before && after.chars >= COMMENTS_MIN_MAIN)
    return [without, alone];
  restore();
  return [scores, best];
}

/**
 * Drops repeated paragraphs and code blocks (same text, at least DUPLICATE_MIN characters):
 * the mobile and desktop copies of a block, or a tab's hidden clone, that hidden content
 * keeps. Shorter ones (prices, badges, "In stock") repeat legitimately across the items of a
 * listing. A code block counts whole: lines repeated inside it are the code's own.
 */
const DUPLICATE_MIN = 20;

/** The fence a paragraph leaves open (code blocks hold blank lines), given the one before. */
function fenceAfter(para: string, open: string | null): string | null {
  let fence = open;
  for (const line of para.split('\n')) {
    const marker = /^(`{3,})/.exec(line)?.[1];
    if (!marker) continue;
    if (fence === null) fence = marker;
    else if (marker === fence && line.trim() === marker) fence = null;
  }
  return fence;
}

/** Paragraphs, with each fenced code block whole (its blank lines are the code's). */
function blocksOf(markdown: string): string[] {
  const blocks: string[] = [];
  let fence: string | null = null;
  for (const para of markdown.split('\n\n')) {
    if (fence !== null) blocks[blocks.length - 1] += `\n\n${para}`;
    else blocks.push(para);
    fence = fenceAfter(para, fence);
  }
  return blocks;
}

function dropRepeats(markdown: string): string {
  const seen = new Set<string>();
  return blocksOf(markdown)
    .filter((block) => {
      const key = squash(block);
      if (key.length < DUPLICATE_MIN) return true;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .join('\n\n');
}

/** The visible text is missing when it holds less than this share of the declared body. */
const MISSING_BODY_SHARE = 0.5;

/**
 * A declared article whose visible text is missing (rendered by scripts from its JSON-LD, or
 * behind a paywall stub) is its declared `articleBody`, one paragraph per line. On
 * data/pages-dev no article needs it: the 16 that declare a body show it (bench/content).
 */
function withDeclaredBody(markdown: string, signals: PageSignals): string {
  const body = declaredArticleBody(signals);
  if (!body || weight(markdown) >= MISSING_BODY_SHARE * weight(body)) return markdown;
  return body
    .split(/\n+/)
    .map((line) => squash(line))
    .filter(Boolean)
    .join('\n\n');
}

export function extractMainContent(html: string, options: MainContentOptions = {}): MainContent {
  const doc = parse(html, options.limits);
  // Text that accessibility attributes carry: found before the pre-clean drops the <meta> and
  // <svg> elements some of it is on, written in after the scoring, which it would sway (image
  // links' alt text made teaser lists outscore articles on data/pages-dev). Links without text
  // get no name here: on data/pages-dev those are teaser images, swatches and share icons.
  const body = findFirst(doc.children, (el) => el.name === 'body');
  const fillAccessibleText = body ? annotateTree(body, doc, { linkNames: false }) : undefined;
  separateElements(doc);
  const title = pageTitle(doc);
  // Read before the pre-clean: it drops the scripts that hold the page's JSON-LD.
  const signals = pageSignals(doc);
  const kind = pageKind(signals, options.url);
  const pageType = classifyPage(signals, options.url);
  const profile = kind === 'article' ? ARTICLE : pageType === 'product' ? PRODUCT : GENERAL;
  const comments = preClean(doc, { preserveHidden: options.preserveHidden ?? true });
  const [scores, best] = scorePage(doc, comments, profile);
  const block = best ?? body;
  const region = kind === 'forum' && block ? (postsOf(block, scores) ?? block) : block;
  if (region) prune(region, scores);
  if (region && pageType === 'product') dropPricedTeasers(region, scores);
  fillAccessibleText?.();
  const visible = region ? dropRepeats(toMarkdown(outerHtml(region))) : '';
  const markdown = kind === 'article' ? withDeclaredBody(visible, signals) : visible;
  return { title, markdown, text: plainText(markdown), method: best ? 'blocks' : 'body', pageType };
}
