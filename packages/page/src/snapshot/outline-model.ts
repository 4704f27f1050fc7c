// The outline of a page (docs/specs.md, "Mode: outline") as data: landmarks, regions, articles and
// the content blocks inside them, each with its semantic xpath and counts. One recursive pass
// over the DOM; outline text, content sections and grep all read this model.
import { codeLanguage, codeLines } from '@tandem/markdown/dom';
import { collapse } from '../dom/text';
import { hiddenTest, isNonContent } from './visibility';
import type { VisibilityOptions } from './visibility';
import { countWords, firstWords } from './words';
import { joinXpath, XpathBuilder } from './xpath';

export type OutlineRole =
  | 'BANNER'
  | 'NAVIGATION'
  | 'MAIN'
  | 'ASIDE'
  | 'CONTENTINFO'
  | 'SEARCH'
  | 'REGION'
  | 'ARTICLE'
  | 'HEADING'
  | 'PARAGRAPH'
  | 'LIST'
  | 'CODE'
  | 'TABLE'
  | 'FIGURE'
  | 'BLOCKQUOTE';

export const LANDMARK_ROLES: ReadonlySet<OutlineRole> = new Set([
  'BANNER',
  'NAVIGATION',
  'MAIN',
  'ASIDE',
  'CONTENTINFO',
  'SEARCH',
]);

/** Roles whose inside is itself outlined; the others are single lines. */
const CONTAINER_ROLES: ReadonlySet<OutlineRole> = new Set([...LANDMARK_ROLES, 'REGION', 'ARTICLE']);

/**
 * Inside a list only these become lines: card lists (`li > article`, `li > h3`) stay visible,
 * while the paragraphs and sub-lists of an item are part of the item.
 */
const ALLOWED_IN_LIST: ReadonlySet<OutlineRole> = new Set([
  ...CONTAINER_ROLES,
  'HEADING',
  'CODE',
  'TABLE',
  'FIGURE',
  'BLOCKQUOTE',
]);

export interface OutlineEntry {
  role: OutlineRole;
  /** The element, or every paragraph of a paragraph group. */
  els: Element[];
  xpath: string;
  name?: string;
  /** The name is the start of the text, not a label or heading. */
  preview?: boolean;
  level?: number;
  words: number;
  links: number;
  images: number;
  items?: number;
  paragraphs?: number;
  lines?: number;
  lang?: string;
  rows?: number;
  columns?: number;
  children: OutlineEntry[];
}

export interface Outline {
  /** The scope: the body, or the element `selector` named. */
  scope: Element;
  /** Top-level entries, each with its children. */
  entries: OutlineEntry[];
  words: number;
  builder: XpathBuilder;
}

/**
 * How a subtree is outlined: every role ('full'), the roles a list item may show ('list'), or
 * none, inside a line ('leaf'). Alongside it the walk passes `sectioning`: inside
 * article/aside/main/nav/section, header and footer are no landmarks.
 */
type WalkMode = 'full' | 'list' | 'leaf';

const ROLE_ATTRIBUTE_MAP: Record<string, OutlineRole | null> = {
  banner: 'BANNER',
  navigation: 'NAVIGATION',
  main: 'MAIN',
  complementary: 'ASIDE',
  contentinfo: 'CONTENTINFO',
  search: 'SEARCH',
  region: 'REGION',
  article: 'ARTICLE',
  heading: 'HEADING',
  paragraph: 'PARAGRAPH',
  list: 'LIST',
  figure: 'FIGURE',
  table: 'TABLE',
  grid: 'TABLE',
  blockquote: 'BLOCKQUOTE',
  code: 'CODE',
};

const TAG_ROLES: Record<string, OutlineRole> = {
  nav: 'NAVIGATION',
  main: 'MAIN',
  aside: 'ASIDE',
  search: 'SEARCH',
  section: 'REGION',
  article: 'ARTICLE',
  h1: 'HEADING',
  h2: 'HEADING',
  h3: 'HEADING',
  h4: 'HEADING',
  h5: 'HEADING',
  h6: 'HEADING',
  p: 'PARAGRAPH',
  ul: 'LIST',
  ol: 'LIST',
  dl: 'LIST',
  menu: 'LIST',
  pre: 'CODE',
  table: 'TABLE',
  figure: 'FIGURE',
  blockquote: 'BLOCKQUOTE',
};

const SECTIONING_TAGS = new Set(['article', 'aside', 'main', 'nav', 'section']);
const SECTIONING_ROLES = new Set(['article', 'complementary', 'main', 'navigation', 'region']);

/**
 * Layout tables (old sites, e-mails) hold the whole page; only tables of data are TABLE lines.
 * Nested tables or cells holding headings and sections mean layout.
 */
function isDataTable(table: Element): boolean {
  if (table.querySelector('table, h1, h2, h3, h4, h5, h6, article, section, main, nav')) {
    return false;
  }
  if (table.querySelector('caption, thead, th')) return true;
  const rows = table.querySelectorAll('tr');
  if (rows.length < 2) return false;
  let columns = 0;
  for (const row of rows) columns = Math.max(columns, row.children.length);
  return columns >= 2;
}

function classify(
  el: Element,
  tag: string,
  roleAttribute: string | null,
  sectioning: boolean,
): OutlineRole | null {
  if (roleAttribute !== null) {
    const first = roleAttribute.trim().split(/\s+/)[0] ?? '';
    // Any other role (tabpanel, menu, presentation, button…) replaces the tag's meaning.
    if (first !== '') return ROLE_ATTRIBUTE_MAP[first] ?? null;
  }
  if (tag === 'header') return sectioning ? null : 'BANNER';
  if (tag === 'footer') return sectioning ? null : 'CONTENTINFO';
  const role = TAG_ROLES[tag];
  if (role === 'TABLE' && !isDataTable(el)) return null;
  return role ?? null;
}

function opensSectioning(tag: string, roleAttribute: string | null): boolean {
  if (SECTIONING_TAGS.has(tag)) return true;
  return roleAttribute !== null && SECTIONING_ROLES.has(roleAttribute);
}

function labelOf(el: Element): string | undefined {
  const label = el.getAttribute('aria-label');
  if (label && collapse(label)) return collapse(label);
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    const doc = el.ownerDocument;
    const text = labelledBy
      .split(/\s+/)
      .map((id) => (id ? (doc.getElementById(id)?.textContent ?? '') : ''))
      .join(' ');
    if (collapse(text)) return collapse(text);
  }
  return undefined;
}

const cap = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;

const NAME_MAX = 80;
const PREVIEW_WORDS = 8;

/**
 * The heading that titles an entry: a direct child heading before any nested section. An
 * article may also take the title of its first region (docs wrap the whole text in one).
 */
function firstHeading(entry: OutlineEntry, throughRegion: boolean): OutlineEntry | undefined {
  for (const child of entry.children) {
    if (child.role === 'HEADING') return child;
    if (child.role === 'REGION' && throughRegion) return firstHeading(child, false);
    if (child.role === 'REGION' || child.role === 'ARTICLE') return undefined;
  }
  return undefined;
}

function listItems(el: Element, tag: string): number {
  let items = 0;
  const itemTag = tag === 'dl' ? 'dt' : 'li';
  for (let child = el.firstElementChild; child; child = child.nextElementSibling) {
    if (child.localName === itemTag || child.getAttribute('role') === 'listitem') items++;
    // <dl> groups pairs in divs; <ul> sometimes wraps items in a template wrapper.
    else if (child.localName === 'div') {
      for (let inner = child.firstElementChild; inner; inner = inner.nextElementSibling) {
        if (inner.localName === itemTag || inner.getAttribute('role') === 'listitem') items++;
      }
    }
  }
  return items;
}

function tableShape(el: Element): { rows: number; columns: number } {
  const rows = el.querySelectorAll('tr');
  let columns = 0;
  for (const row of rows) {
    let width = 0;
    for (let cell = row.firstElementChild; cell; cell = cell.nextElementSibling) {
      width += Math.max(1, Number(cell.getAttribute('colspan')) || 1);
    }
    columns = Math.max(columns, width);
  }
  return { rows: rows.length, columns };
}

/** Fills the role-specific fields; false when the entry says nothing and is dropped. */
function finish(entry: OutlineEntry, el: Element, tag: string): boolean {
  switch (entry.role) {
    case 'HEADING': {
      const text = collapse(el.textContent ?? '');
      if (!text) return false;
      const ariaLevel = Number(el.getAttribute('aria-level'));
      entry.level = /^h[1-6]$/.test(tag) ? Number(tag[1]) : ariaLevel >= 1 ? ariaLevel : 2;
      entry.name = cap(text, NAME_MAX);
      return true;
    }
    case 'PARAGRAPH':
      entry.paragraphs = 1;
      return entry.words > 0;
    case 'LIST':
      entry.items = listItems(el, tag);
      return entry.items > 0 && (entry.words > 0 || entry.children.length > 0);
    case 'CODE': {
      entry.lines = codeLines(el.textContent ?? '').length;
      const lang = codeLanguage(el);
      if (lang) entry.lang = lang;
      return entry.lines > 0;
    }
    case 'TABLE': {
      Object.assign(entry, tableShape(el));
      const caption = el.querySelector('caption');
      const name = labelOf(el) ?? collapse(caption?.textContent ?? '');
      if (name) entry.name = cap(name, NAME_MAX);
      return (entry.rows ?? 0) > 0 && entry.words > 0;
    }
    case 'FIGURE': {
      const caption = el.querySelector('figcaption');
      const name = labelOf(el) ?? collapse(caption?.textContent ?? '');
      if (name) entry.name = cap(name, NAME_MAX);
      return entry.words > 0 || entry.images > 0;
    }
    case 'BLOCKQUOTE':
      return entry.words > 0;
    case 'ARTICLE': {
      const name = labelOf(el) ?? firstHeading(entry, true)?.name;
      if (name) entry.name = name;
      else if (entry.words > 0) {
        const preview = firstWords(collapse(el.textContent ?? ''), PREVIEW_WORDS);
        entry.name = preview.text;
        if (preview.truncated) entry.preview = true;
      }
      return entry.words > 0 || entry.children.length > 0;
    }
    default: {
      const name =
        labelOf(el) ?? (entry.role === 'REGION' ? firstHeading(entry, false)?.name : undefined);
      if (name) entry.name = cap(name, NAME_MAX);
      return entry.words > 0 || entry.children.length > 0;
    }
  }
}

/** Where a line's inside would put entries: nowhere, it never does. */
const NO_ENTRIES: OutlineEntry[] = [];

/**
 * The walk keeps running totals instead of returning counts: it touches every node of the
 * page, and an object per element (plus a context copy per wrapper) was most of its garbage.
 * An entry's counts are the totals after its children minus the totals before them.
 *
 * Asking the engine whether an element is shown is the most expensive call of the walk, so it
 * is skipped where the answer cannot matter: an element holding only text that is no entry and
 * has no word and no link counts nothing whether shown or not (icons, spacers, the whitespace
 * spans of highlighted code).
 */
class OutlineWalker {
  private readonly hidden: (el: Element) => boolean;
  words = 0;
  links = 0;
  images = 0;

  constructor(
    readonly builder: XpathBuilder,
    visibility: VisibilityOptions,
  ) {
    this.hidden = hiddenTest(visibility);
  }

  visitChildren(
    parent: Element,
    children: OutlineEntry[],
    sectioning: boolean,
    mode: WalkMode,
  ): void {
    for (let node = parent.firstChild; node; node = node.nextSibling) {
      const type = node.nodeType;
      if (type === 3) {
        const data = (node as Text).data;
        if (data.length > 0) this.words += countWords(data);
      } else if (type === 1) {
        const el = node as Element;
        if (mode === 'leaf') this.visitInLine(el);
        else this.visit(el, children, sectioning, mode);
      }
    }
  }

  /** An element where entries may start (`mode` is 'full' or 'list'). */
  visit(el: Element, children: OutlineEntry[], parentSectioning: boolean, mode: WalkMode): void {
    const tag = el.localName;
    if (isNonContent(tag)) {
      this.visitOpaque(el, tag);
      return;
    }
    const roleAttribute = el.getAttribute('role');
    const role = classify(el, tag, roleAttribute, parentSectioning);
    const allowed =
      role !== null &&
      (mode === 'full' || ALLOWED_IN_LIST.has(role)) &&
      this.builder.step(el) !== null;
    if (!allowed && el.firstElementChild === null) {
      this.visitTextOnly(el, tag);
      return;
    }
    if (this.hidden(el)) return;
    const sectioning = parentSectioning || opensSectioning(tag, roleAttribute);
    if (!allowed) this.visitChildren(el, children, sectioning, mode);
    else this.visitEntry(el, tag, role, children, sectioning);
    if (tag === 'a' && el.hasAttribute('href')) this.links++;
  }

  private visitEntry(
    el: Element,
    tag: string,
    role: OutlineRole,
    children: OutlineEntry[],
    sectioning: boolean,
  ): void {
    const entry: OutlineEntry = {
      role,
      els: [el],
      xpath: '',
      words: 0,
      links: 0,
      images: 0,
      children: [],
    };
    const { words, links, images } = this;
    const inner: WalkMode = CONTAINER_ROLES.has(role) ? 'full' : role === 'LIST' ? 'list' : 'leaf';
    this.visitChildren(el, entry.children, sectioning, inner);
    entry.words = this.words - words;
    entry.links = this.links - links;
    entry.images = this.images - images;
    if (finish(entry, el, tag)) children.push(entry);
    else children.push(...entry.children);
  }

  /** An element inside a line: nothing becomes an entry, only the counts are wanted. */
  private visitInLine(el: Element): void {
    const tag = el.localName;
    if (isNonContent(tag)) this.visitOpaque(el, tag);
    else if (el.firstElementChild === null) this.visitTextOnly(el, tag);
    else if (!this.hidden(el)) {
      this.visitChildren(el, NO_ENTRIES, false, 'leaf');
      if (tag === 'a' && el.hasAttribute('href')) this.links++;
    }
  }

  /** Only images count inside the elements whose inside is no page text. */
  private visitOpaque(el: Element, tag: string): void {
    // <picture> is counted once: its <img> is never reached.
    if ((tag === 'img' || tag === 'picture') && !this.hidden(el)) this.images++;
  }

  /** An element without element children that is no entry: its words, and its link. */
  private visitTextOnly(el: Element, tag: string): void {
    let words = 0;
    for (let node = el.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3) {
        const data = (node as Text).data;
        if (data.length > 0) words += countWords(data);
      }
    }
    const link = tag === 'a' && el.hasAttribute('href');
    if ((words > 0 || link) && !this.hidden(el)) {
      this.words += words;
      if (link) this.links++;
    }
  }
}

/**
 * Merges runs of sibling paragraphs under the same meaningful parent into one line
 * (`PARAGRAPH [4 paragraphs]`), the way the spec's outline shows them.
 */
function groupParagraphs(entries: OutlineEntry[], builder: XpathBuilder): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  for (const entry of entries) {
    entry.children = groupParagraphs(entry.children, builder);
    const previous = out[out.length - 1];
    const el = entry.els[0] as Element;
    if (
      previous &&
      entry.role === 'PARAGRAPH' &&
      previous.role === 'PARAGRAPH' &&
      el.localName === 'p' &&
      (previous.els[0] as Element).localName === 'p' &&
      builder.parentOf(el) === builder.parentOf(previous.els[0] as Element)
    ) {
      previous.els.push(el);
      previous.paragraphs = (previous.paragraphs ?? 1) + 1;
      previous.words += entry.words;
      previous.links += entry.links;
      previous.images += entry.images;
      continue;
    }
    out.push(entry);
  }
  return out;
}

function assignXpaths(entries: OutlineEntry[], builder: XpathBuilder): void {
  for (const entry of entries) {
    const first = entry.els[0] as Element;
    if (entry.els.length > 1) {
      const parent = builder.parentOf(first);
      const parentPath = parent ? builder.xpathOf(parent) : undefined;
      entry.xpath = joinXpath(parentPath ?? '/', 'p');
    } else {
      entry.xpath = builder.xpathOf(first) ?? '/';
    }
    assignXpaths(entry.children, builder);
  }
}

export interface OutlineOptions extends VisibilityOptions {
  /** Outline only inside this element; default the body. */
  scope?: Element;
}

export function buildOutline(doc: Document, options: OutlineOptions): Outline {
  const builder = new XpathBuilder(doc);
  const walker = new OutlineWalker(builder, options);
  const scope = options.scope ?? builder.root;
  const entries: OutlineEntry[] = [];
  if (scope === builder.root || scope === doc.documentElement) {
    walker.visitChildren(scope, entries, false, 'full');
  } else {
    const sectioning = scope.parentElement?.closest(
      'article, aside, main, nav, section, [role=article], [role=complementary], [role=main], [role=navigation], [role=region]',
    );
    walker.visit(scope, entries, Boolean(sectioning), 'full');
  }
  const grouped = groupParagraphs(entries, builder);
  assignXpaths(grouped, builder);
  return { scope, entries: grouped, words: walker.words, builder };
}

/** Every entry, parents before their children, in document order. */
export function flattenOutline(entries: readonly OutlineEntry[]): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  const visit = (list: readonly OutlineEntry[]): void => {
    for (const entry of list) {
      out.push(entry);
      visit(entry.children);
    }
  };
  visit(entries);
  return out;
}
