// Pre-clean of the parsed page before block scoring. Hidden content is kept by default on
// purpose: the spec (phase 1 of docs/specs.md, "two-phase SPA ingestion") warns that SPA pages hide
// real content behind tabs and accordions; phase 2 (`preserveHidden: false`) drops what markup
// hides. aria-hidden never removes anything: such content is visible (the attribute is ignored).
import { type AnyNode, type Document, type Element, isTag, isText, type Text, weight } from './dom';

/** Elements that never carry main content. */
const NEVER_CONTENT = new Set([
  'script',
  'style',
  'template',
  'svg',
  'iframe',
  'canvas',
  'link',
  'meta',
  'head',
  'button',
  'select',
  'option',
  'input',
  'textarea',
  'object',
  'embed',
]);

/** Site chrome: navigation, page footers, sidebars and dialogs. */
const CHROME_TAGS = new Set(['nav', 'footer', 'aside', 'dialog']);
const CHROME_ROLES = new Set([
  'navigation',
  'contentinfo',
  'banner',
  'dialog',
  'alertdialog',
  'complementary',
  'menu',
  'menubar',
  'search',
]);

const INNER_ROLES = new Set(['dialog', 'complementary']);

/** Class/id words of boilerplate blocks (cookie banners, share bars, newsletter boxes). */
const BOILERPLATE =
  /(^|[\s_-])(cookies?|consent|gdpr|newsletter|subscribe|share|sharing|social|breadcrumbs?|skip-link|popup|modal|advert|ads?|sponsor|promo|related|recommend(ed|ations)?|sidebar|site-?header|site-?footer|masthead|menu|navbar|nav|drawer|toolbar)([\s_-]|$)/i;

/** A class token naming content as well ("content-has-sidebar") is a layout modifier, not chrome. */
const CONTENT_TOKEN = /content|main|article|body|post|entry|story|text|product|description/i;

/**
 * A token saying what its element holds or has switched on ("has-menu", "no-ads",
 * "hide-river-ad", "modal-enabled") is a modifier of that element, whatever the element is, so
 * its boilerplate word does not make the element chrome. Not its own state ("modal-open",
 * "menu-hidden", "is-popup"): those name the chrome itself.
 */
const MODIFIER_TOKEN = /^(?:(?:has|with|no|hide)[-_].+|.+[-_](?:enabled|disabled|loaded|ready))$/i;

/** Class/id words of comment sections under an article (not forum posts: see preClean). */
const COMMENTS = /(^|[\s_-])(comments?|commentlist|respond|replies|disqus)([\s_-]|$)/i;

/** Text of a cookie notice that carries no class or id saying so. */
const COOKIE_TEXT = /\b(we|this (web)?site|our (web)?site) uses? (\w+ )?cookies\b/i;

/** A cookie notice is the largest element around such text with at most this much text. */
const MAX_NOTICE = 800;

/** A <noscript> with at least this much text is the page's server-rendered content (forums). */
const NOSCRIPT_CONTENT = 200;

/** Chrome and boilerplate holding more than this share of the page's text are kept. */
const MAX_CHROME_SHARE = 0.5;

export interface CleanOptions {
  preserveHidden: boolean;
}

const HIDDEN_STYLE = /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)/i;

function isHidden(el: Element): boolean {
  const a = el.attribs;
  return 'hidden' in a || HIDDEN_STYLE.test(a.style ?? '') || a.type === 'hidden';
}

/** Never removed as chrome: the page itself. */
const PAGE = new Set(['html', 'body', 'main', 'article']);

function isChrome(el: Element, inMain: boolean): boolean {
  const a = el.attribs;
  if (PAGE.has(el.name)) return false;
  // Sheets and asides inside the page's <main> hold its details (product descriptions).
  const inside = inMain;
  if (CHROME_TAGS.has(el.name) && !(inside && el.name === 'aside')) return true;
  if (a.role && CHROME_ROLES.has(a.role) && !(inside && INNER_ROLES.has(a.role))) return true;
  if (a['aria-modal'] === 'true') return true;
  // A <header> outside any <article> or <main> is the site header, not the page's.
  if (el.name === 'header' && !inMain) return true;
  const words = `${a.class ?? ''} ${a.id ?? ''}`;
  if (words.length <= 1) return false;
  return words
    .split(/\s+/)
    .some(
      (token) =>
        BOILERPLATE.test(token) && !CONTENT_TOKEN.test(token) && !MODIFIER_TOKEN.test(token),
    );
}

const textWeight = (nodes: AnyNode[]): number =>
  nodes.reduce(
    (n, c) =>
      n +
      (isText(c)
        ? weight(c.data)
        : isTag(c) && !NEVER_CONTENT.has(c.name)
          ? textWeight(c.children)
          : 0),
    0,
  );

/** Text weight inside links: a mega menu holding most of a page's text is still chrome. */
const linkWeight = (nodes: AnyNode[]): number =>
  nodes.reduce(
    (n, c) =>
      n +
      (isTag(c) && !NEVER_CONTENT.has(c.name)
        ? c.name === 'a'
          ? textWeight(c.children)
          : linkWeight(c.children)
        : 0),
    0,
  );

/** Chrome whose text is at least this share links is dropped however much text it holds. */
const MENU_LINK_SHARE = 0.8;

/** Chrome goes unless it holds most of the page's text, and then only if that text is links. */
function dropChrome(el: Element, ctx: Context): boolean {
  const chars = textWeight(el.children);
  return chars <= ctx.maxChrome || linkWeight(el.children) >= MENU_LINK_SHARE * chars;
}

function keep(node: AnyNode, ctx: Context): boolean {
  if (isText(node)) return true;
  if (!isTag(node)) return false; // comments, directives, CDATA
  if (NEVER_CONTENT.has(node.name)) return false;
  if (node.name === 'noscript') return textWeight(node.children) >= NOSCRIPT_CONTENT;
  if (!ctx.options.preserveHidden && isHidden(node)) return false;
  return !(isChrome(node, ctx.inMain) && dropChrome(node, ctx));
}

interface Context {
  options: CleanOptions;
  inMain: boolean;
  maxChrome: number;
  inComments: boolean;
  comments: Element[];
}

function isComments(el: Element): boolean {
  const words = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`;
  return words.length > 1 && COMMENTS.test(words);
}

function cleanChildren(parent: Element | Document, ctx: Context): void {
  const kept = parent.children.filter((c) => keep(c, ctx));
  if (kept.length !== parent.children.length) {
    kept.forEach((c, i) => {
      c.prev = kept[i - 1] ?? null;
      c.next = kept[i + 1] ?? null;
    });
    parent.children = kept;
  }
  for (const child of kept) {
    if (!isTag(child)) continue;
    const main = ctx.inMain || child.name === 'article' || child.name === 'main';
    const comments = !ctx.inComments && isComments(child);
    if (comments) ctx.comments.push(child);
    cleanChildren(
      child,
      main === ctx.inMain && !comments
        ? ctx
        : { ...ctx, inMain: main, inComments: ctx.inComments || comments },
    );
  }
}

function findCookieText(node: Element | Document, found: Text[]): void {
  for (const child of node.children) {
    if (isText(child) && COOKIE_TEXT.test(child.data)) found.push(child);
    else if (isTag(child)) findCookieText(child, found);
  }
}

/** Removes cookie notices found by their text. */
function removeCookieNotices(doc: Document): void {
  const found: Text[] = [];
  findCookieText(doc, found);
  for (const text of found) {
    let notice: Element | null = null;
    for (let el = text.parent; el && isTag(el) && !PAGE.has(el.name); el = el.parent) {
      if (textWeight(el.children) > MAX_NOTICE) break;
      notice = el;
    }
    const parent = notice?.parent;
    if (notice && parent) parent.children = parent.children.filter((c) => c !== notice);
  }
}

/**
 * Removes what is never main content from the document, in place. Returns the comment
 * sections (outermost ones), left in place: they are dropped only when the page has main
 * content without them (an article's comments), not on a forum whose posts they are.
 */
export function preClean(doc: Document, options: CleanOptions): Element[] {
  const comments: Element[] = [];
  cleanChildren(doc, {
    options,
    inMain: false,
    maxChrome: MAX_CHROME_SHARE * textWeight(doc.children),
    inComments: false,
    comments,
  });
  removeCookieNotices(doc);
  return comments;
}
