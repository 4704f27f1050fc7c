// Content mode (docs/specs.md, "content mode"): the text of the sections grep selects from the
// outline, as a tree of blocks, cleaned HTML or Markdown. A grep selects the outermost outline
// entries whose line matches; an inverted grep (-v) also cuts the entries it rejects out of the
// sections it keeps, so `{ pattern: 'nav|footer', invert: true }` really leaves navigation and
// footers out.
import type { SnapshotFormat } from '@tandem/contracts';
import {
  absoluteUrl,
  childElements,
  codeLanguage,
  codeLines,
  createMarkdownConverter,
  isGridTable,
  normalizeTables,
} from '@tandem/markdown/dom';
import { collapse } from '../dom/text';
import { cleanClone, createCloneTarget } from './clean-clone';
import type { LineFilter } from './grep';
import type { Outline, OutlineEntry } from './outline-model';
import { flattenOutline } from './outline-model';
import type { PageHeader } from './outline-text';
import { entryLine, quote } from './outline-text';
import type { VisibilityOptions } from './visibility';
import { counted, countWords } from './words';

export interface ContentSection {
  /** The xpath comment: the entry's xpath, or how the scope was named. */
  label: string;
  els: Element[];
}

export interface SectionChoice {
  sections: ContentSection[];
  excluded: Set<Element>;
}

/**
 * Without grep, the scope itself is the one section. With grep, the outermost entries whose
 * outline line passes the filter, in document order. Under -v an entry whose line matches the
 * pattern is dropped with everything inside it, and cut out of the sections that contain it.
 */
export function chooseSections(
  outline: Outline,
  scopeLabel: string,
  filter: LineFilter | undefined,
  invert: boolean,
): SectionChoice {
  const excluded = new Set<Element>();
  if (!filter) return { sections: [{ label: scopeLabel, els: [outline.scope] }], excluded };
  const sections: ContentSection[] = [];
  const visit = (entries: readonly OutlineEntry[]): void => {
    for (const entry of entries) {
      if (filter(entryLine(entry))) sections.push({ label: entry.xpath, els: entry.els });
      // A rejected container takes its inside with it under -v; otherwise look deeper.
      else if (!invert) visit(entry.children);
    }
  };
  visit(outline.entries);
  if (invert) {
    for (const entry of flattenOutline(outline.entries)) {
      if (!filter(entryLine(entry))) for (const el of entry.els) excluded.add(el);
    }
  }
  return { sections, excluded };
}

export interface ContentOptions extends VisibilityOptions {
  format: SnapshotFormat;
  includeLinks: boolean;
  includeImages: boolean;
  maxLength?: number;
  baseUrl: string;
  page: PageHeader;
  grep?: string;
}

interface Rendered {
  text: string;
  /** Words of page text in `text` (after any maxLength cut). */
  words: number;
  /** Words of the whole section. */
  totalWords: number;
}

// ---------------------------------------------------------------------------------------------
// Tree format: one line per block, indented under its SECTION line.

interface TreeLine {
  text: string;
  words: number;
}

const HEADING_TAG = /^h([1-6])$/;
const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'div',
  'dd',
  'details',
  'dt',
  'fieldset',
  'figcaption',
  'footer',
  'form',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'nav',
  'p',
  'search',
  'section',
  'summary',
  'tr',
  'td',
  'th',
  'caption',
]);

const LIST_TAGS = new Set(['ul', 'ol', 'dl', 'menu']);
const SPACED_TAGS = new Set([
  ...BLOCK_TAGS,
  ...LIST_TAGS,
  'pre',
  'table',
  'blockquote',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

class TreeRenderer {
  readonly lines: TreeLine[] = [];
  private buffer = '';
  private bufferIndent = 0;

  constructor(private readonly options: ContentOptions) {}

  private push(indent: number, text: string, words: number): void {
    this.lines.push({ text: `${'  '.repeat(indent)}${text}`, words });
  }

  /** Words of rendered text, not counting the URLs links were given. */
  private static words(text: string): number {
    return markdownWords(text);
  }

  private flush(): void {
    const text = collapse(this.buffer);
    this.buffer = '';
    if (text) this.push(this.bufferIndent, `TEXT ${quote(text)}`, TreeRenderer.words(text));
  }

  /** Inline text of an element, links rendered as [text](url) when asked. */
  private inline(el: Element): string {
    let out = '';
    for (let node = el.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3) out += (node as Text).data;
      else if (node.nodeType === 1) {
        const child = node as Element;
        if (child.localName === 'br') out += ' ';
        else if (child.localName === 'a') out += this.link(child);
        // Block boundaries separate words; inline ones (<b>, <span>) do not.
        else if (SPACED_TAGS.has(child.localName)) out += ` ${this.inline(child)} `;
        else out += this.inline(child);
      }
    }
    return out;
  }

  private link(a: Element): string {
    const text = this.inline(a);
    if (!this.options.includeLinks) return text;
    const href = absoluteUrl(a.getAttribute('href'), this.options.baseUrl);
    return href && collapse(text) ? `[${collapse(text)}](${href})` : text;
  }

  private image(img: Element, indent: number): void {
    if (!this.options.includeImages) return;
    const src = absoluteUrl(img.getAttribute('src'), this.options.baseUrl);
    if (!src) return;
    this.flush();
    const alt = collapse(img.getAttribute('alt') ?? '');
    this.push(indent, `IMAGE ${quote(alt)} ${src}`, countWords(alt));
  }

  private list(el: Element, indent: number): void {
    const itemTag = el.localName === 'dl' ? 'dt' : 'li';
    const items: string[] = [];
    for (const item of el.querySelectorAll(itemTag)) {
      // Items of nested lists are part of their parent item's text.
      if (item.parentElement?.closest('ul, ol, dl, menu') !== el) continue;
      let text = collapse(this.inline(item));
      if (itemTag === 'dt') {
        const definition = item.nextElementSibling;
        if (definition?.localName === 'dd') text = `${text}: ${collapse(this.inline(definition))}`;
      }
      if (text) items.push(text);
    }
    if (items.length === 0) return;
    this.push(indent, `LIST [${counted(items.length, 'item')}]`, 0);
    for (const item of items) this.push(indent + 1, `- ${quote(item)}`, TreeRenderer.words(item));
  }

  private table(el: Element, indent: number): void {
    const rows = [...el.querySelectorAll('tr')].map((row) =>
      childElements(row)
        .filter((cell) => cell.localName === 'td' || cell.localName === 'th')
        .map((cell) => collapse(this.inline(cell)).replace(/\|/g, '\\|')),
    );
    // Normalised (tables.ts): every row has the same number of cells.
    const columns = rows[0]?.length ?? 0;
    const caption = collapse(el.querySelector('caption')?.textContent ?? '');
    this.push(
      indent,
      `TABLE${caption ? ` ${quote(caption)}` : ''} [${counted(rows.length, 'row')}, ${counted(columns, 'column')}]`,
      countWords(caption),
    );
    for (const row of rows) {
      const text = `| ${row.join(' | ')} |`;
      this.push(indent + 1, text, TreeRenderer.words(row.join(' ')));
    }
  }

  private code(el: Element, indent: number): void {
    const lines = codeLines(el.textContent ?? '');
    if (lines.length === 0) return;
    const lang = codeLanguage(el);
    this.push(indent, `CODE [${lang ? `${lang}, ` : ''}${counted(lines.length, 'line')}]`, 0);
    for (const line of lines) this.push(indent + 1, line, countWords(line));
  }

  render(el: Element, indent: number): void {
    for (let node = el.firstChild; node; node = node.nextSibling) this.renderNode(node, indent);
  }

  private renderNode(node: Node, indent: number): void {
    if (node.nodeType === 3) {
      if (this.buffer === '') this.bufferIndent = indent;
      this.buffer += (node as Text).data;
      return;
    }
    if (node.nodeType !== 1) return;
    const child = node as Element;
    const tag = child.localName;
    const heading = HEADING_TAG.exec(tag);
    if (heading || child.getAttribute('role') === 'heading') {
      this.flush();
      const text = collapse(this.inline(child));
      const level = heading ? Number(heading[1]) : Number(child.getAttribute('aria-level')) || 2;
      if (text) this.push(indent, `HEADING level=${level} ${quote(text)}`, countWords(text));
    } else if (LIST_TAGS.has(tag)) {
      this.flush();
      this.list(child, indent);
    } else if (tag === 'pre') {
      this.flush();
      this.code(child, indent);
    } else if (tag === 'table') {
      this.flush();
      // Layout tables and single cells (see tables.ts) read as text, block by block.
      if (isGridTable(child)) this.table(child, indent);
      else this.render(child, indent);
    } else if (tag === 'blockquote') {
      this.flush();
      const text = collapse(this.inline(child));
      if (text) this.push(indent, `QUOTE ${quote(text)}`, countWords(text));
    } else if (tag === 'figure') {
      this.flush();
      const caption = collapse(child.querySelector('figcaption')?.textContent ?? '');
      this.push(indent, `FIGURE${caption ? ` ${quote(caption)}` : ''}`, countWords(caption));
      for (let part = child.firstChild; part; part = part.nextSibling) {
        if (part.nodeType === 1 && (part as Element).localName === 'figcaption') continue;
        this.renderNode(part, indent + 1);
      }
      this.flush();
    } else if (tag === 'img') {
      this.image(child, indent);
    } else if (tag === 'a') {
      if (this.buffer === '') this.bufferIndent = indent;
      this.buffer += this.link(child);
    } else if (BLOCK_TAGS.has(tag)) {
      this.flush();
      this.render(child, indent);
      this.flush();
    } else {
      this.render(child, indent);
    }
  }

  finish(): TreeLine[] {
    this.flush();
    return this.lines;
  }
}

function cutLines(lines: TreeLine[], maxLength: number | undefined): Rendered {
  const full = lines.map((l) => l.text).join('\n');
  const totalWords = lines.reduce((sum, l) => sum + l.words, 0);
  if (maxLength === undefined || full.length <= maxLength) {
    return { text: full, words: totalWords, totalWords };
  }
  const kept: string[] = [];
  let length = 0;
  let words = 0;
  for (const line of lines) {
    const extra = line.text.length + (kept.length > 0 ? 1 : 0);
    if (length + extra > maxLength) {
      const room = maxLength - length - (kept.length > 0 ? 1 : 0);
      if (room > 20) {
        const part = cutAtSpace(line.text, room);
        kept.push(part);
        words += countWords(part);
      }
      break;
    }
    kept.push(line.text);
    length += extra;
    words += line.words;
  }
  kept.push(truncationNote(kept.join('\n').length, full.length, 'TRUNCATED'));
  return { text: kept.join('\n'), words, totalWords };
}

// ---------------------------------------------------------------------------------------------
// Markdown and HTML: one string per section, cut at maxLength on a word boundary.

function cutAtSpace(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max);
  const space = slice.search(/\s\S*$/);
  return `${(space > max / 2 ? slice.slice(0, space) : slice).trimEnd()}…`;
}

function truncationNote(shown: number, total: number, style: 'TRUNCATED' | 'comment'): string {
  const text = `truncated: ${shown} of ${total} characters`;
  return style === 'comment' ? `<!-- ${text} -->` : `… ${text}`;
}

/** Words a reader sees in Markdown: link and image targets are not words of the page. */
const markdownWords = (markdown: string): number =>
  countWords(markdown.replace(/\]\([^)\s]*\)/g, '] ').replace(/^(`{3,})[^\n]*$/gm, ''));

function cutMarkdown(
  markdown: string,
  maxLength: number | undefined,
  totalWords: number,
): Rendered {
  if (maxLength === undefined || markdown.length <= maxLength) {
    return { text: markdown, words: totalWords, totalWords };
  }
  let text = cutAtSpace(markdown, maxLength);
  // An unclosed fence would turn the rest of the document into code.
  const fences = text.match(/^`{3,}/gm) ?? [];
  if (fences.length % 2 === 1) text += `\n${fences[fences.length - 1] as string}`;
  return {
    text: `${text}\n\n${truncationNote(text.length, markdown.length, 'comment')}`,
    words: markdownWords(text),
    totalWords,
  };
}

function cutHtml(
  html: string,
  maxLength: number | undefined,
  totalWords: number,
  el: HTMLElement,
): Rendered {
  if (maxLength === undefined || html.length <= maxLength) {
    return { text: html, words: totalWords, totalWords };
  }
  const text = html.slice(0, maxLength);
  // Text of the cut HTML: the part before the cut, parsed by the browser's own parser.
  const probe = el.ownerDocument.createElement('div');
  probe.innerHTML = text;
  return {
    text: `${text}\n${truncationNote(text.length, html.length, 'comment')}`,
    words: countWords(probe.textContent ?? ''),
    totalWords,
  };
}

// ---------------------------------------------------------------------------------------------

export function renderContent(
  doc: Document,
  choice: SectionChoice,
  options: ContentOptions,
): string {
  const target = createCloneTarget(doc);
  const toMarkdown =
    options.format === 'markdown'
      ? createMarkdownConverter({
          includeLinks: options.includeLinks,
          includeImages: options.includeImages,
          baseUrl: options.baseUrl,
          source: doc,
          // Normalised below, on the clean clone the tree and HTML formats read too.
          normalizeTables: false,
        })
      : undefined;

  const rendered = choice.sections.map((section) => {
    const clone = cleanClone(section.els, target, {
      ...options,
      excluded: choice.excluded,
      keepNamed: options.format === 'markdown',
    });
    // Every format: Markdown needs it for GFM tables, and the tree and HTML formats show the
    // same rows of equal width, spanned values repeated where a reader of one row needs them.
    normalizeTables(clone);
    if (options.format === 'tree') {
      const renderer = new TreeRenderer(options);
      renderer.render(clone, 1);
      return { section, ...cutLines(renderer.finish(), options.maxLength) };
    }
    const totalWords = countWords(clone.textContent ?? '');
    if (toMarkdown) {
      return { section, ...cutMarkdown(toMarkdown(clone), options.maxLength, totalWords) };
    }
    return { section, ...cutHtml(clone.innerHTML.trim(), options.maxLength, totalWords, clone) };
  });
  const words = rendered.reduce((sum, r) => sum + r.words, 0);

  if (options.format === 'tree') {
    const stats = [`sections=${rendered.length}`, `words=${words}`];
    if (options.grep !== undefined) stats.push(`grep=${options.grep}`);
    const lines = [
      `PAGE: ${options.page.url} | ${options.page.title}`,
      `CONTENT: ${stats.join(' ')}`,
    ];
    for (const r of rendered) {
      lines.push('', `SECTION ${r.section.label} [${counted(r.totalWords, 'word')}]`);
      if (r.text) lines.push(r.text);
    }
    return lines.join('\n');
  }

  const parts = [`<!-- source: ${options.page.url} -->`];
  for (const r of rendered) {
    parts.push(`<!-- xpath: ${r.section.label} -->`, '', r.text, '');
  }
  if (rendered.length === 0) {
    parts.push(`<!-- no section matched grep=${options.grep ?? ''} -->`, '');
  }
  parts.push(`<!-- end: ${counted(words, 'word')} extracted -->`);
  return parts.join('\n');
}
