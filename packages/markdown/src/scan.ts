// One pass over the lines of a Markdown document: what each line is (blank, heading, fence,
// table row, list item, ...), which blocks it belongs to, and how good a place the boundary
// *before* it is to end a chunk. The chunker (chunk.ts) only reads these arrays.
//
// This is a pragmatic reading of CommonMark + GFM tuned for chunking, not a parser: where it is
// unsure it keeps more lines together (a longer unit is safe; a cut inside a structure is not).

/** Split priorities for the boundary before a line; lower is better. 1-6: before a heading of that level. */
export const PRI_PARAGRAPH = 7; // after one or more blank lines
export const PRI_TABLE_ROW = 8; // between two data rows of a table
export const PRI_LIST_ITEM = 9; // before a list item (no blank line before it)
export const PRI_LINE = 10; // any other line boundary (inside a paragraph, a block quote, ...)
export const PRI_AFTER_HEADING = 11; // would leave a heading dangling at the end of a chunk
export const PRI_CODE_LINE = 12; // between two lines of a fenced code block (fallback only)
/** Never end a chunk here. */
export const FORBIDDEN = 0;
const UNSET = 255;

export const Kind = {
  Blank: 0,
  Text: 1,
  Heading: 2,
  SetextUnderline: 3,
  Fence: 4,
  Table: 5,
  List: 6,
  Quote: 7,
  Rule: 8,
} as const;

export interface Fence {
  /** Line of the opening fence. */
  open: number;
  /** Line of the closing fence; -1 when the fence runs to the end of the document. */
  close: number;
  /** The line that closes this fence, with its newline (appended to a chunk cut inside the fence). */
  closeLine: string;
}

export interface Table {
  header: number;
  /** First data row (header + 2); equal to `end` when the table has no data rows. */
  firstRow: number;
  /** One past the last data row. */
  end: number;
}

export interface Heading {
  level: number;
  /** "## Install" */
  label: string;
  /** Nearest previous heading with a lower level, -1 when none. */
  parent: number;
}

export interface Scan {
  content: string;
  count: number;
  /** Start offset of each line; `starts[count] === content.length`. */
  starts: Int32Array;
  kind: Uint8Array;
  blank: Uint8Array;
  /** Priority of ending a chunk before this line at block level (FORBIDDEN inside a unit). */
  outer: Uint8Array;
  /** Priority of ending a chunk before this line when its unit alone overflows a chunk. */
  inner: Uint8Array;
  /** The next line after this one with an allowed block-level boundary (`count` when none). */
  nextOuter: Int32Array;
  fenceOf: Int32Array;
  tableOf: Int32Array;
  /** Heading that starts on this line, -1 when none. */
  headingAt: Int32Array;
  /** Heading in effect on this line (the heading on it, or the last one before it), -1 when none. */
  lastHeading: Int32Array;
  fences: Fence[];
  tables: Table[];
  headings: Heading[];
}

const TEXT_CACHE_MASK = 7;

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const ATX_CLOSING = /(?:^|[ \t]+)#+[ \t]*$/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;
const RULE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const LIST = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)/;
const QUOTE = /^ {0,3}>/;
const DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** Leading whitespace in columns (tab stops of 4). */
function indentOf(text: string): number {
  let cols = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) cols++;
    else if (c === 9) cols += 4 - (cols % 4);
    else return cols;
  }
  return cols;
}

/** GFM cell count of a row: unescaped pipes, ignoring one leading and one trailing pipe. */
function cellCount(text: string): number {
  const s = text.trim();
  let from = s.startsWith('|') ? 1 : 0;
  let to = s.length;
  if (to > from && s.endsWith('|') && !s.endsWith('\\|')) to--;
  let cells = 1;
  for (; from < to; from++) {
    const c = s.charCodeAt(from);
    if (c === 92 /* \ */) from++;
    else if (c === 124 /* | */) cells++;
  }
  return cells;
}

/** Index of the first character that is not a space or a tab. */
function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i;
}

function startsWithFenceChar(text: string): boolean {
  const c = text.charCodeAt(firstNonSpace(text));
  return c === 96 /* ` */ || c === 126; /* ~ */
}

function fenceOpening(text: string): { marker: string; indent: number } | null {
  if (!startsWithFenceChar(text)) return null;
  const m = FENCE_OPEN.exec(text);
  if (!m) return null;
  const marker = m[1] as string;
  if (marker.startsWith('`') && (m[2] as string).includes('`')) return null;
  return { marker, indent: indentOf(text) };
}

function closesFence(text: string, marker: string): boolean {
  if (text.charCodeAt(firstNonSpace(text)) !== marker.charCodeAt(0)) return false;
  const m = FENCE_CLOSE.exec(text);
  if (!m) return false;
  const close = m[1] as string;
  return close.charCodeAt(0) === marker.charCodeAt(0) && close.length >= marker.length;
}

function headingLabel(level: number, text: string): string {
  const title = text.replace(ATX_CLOSING, '').trim().replace(/\s+/g, ' ');
  const hashes = '#'.repeat(level);
  return title === '' ? hashes : `${hashes} ${title}`;
}

class Scanner {
  readonly count: number;
  readonly starts: Int32Array;
  readonly kind: Uint8Array;
  readonly blank: Uint8Array;
  readonly outer: Uint8Array;
  readonly inner: Uint8Array;
  readonly fenceOf: Int32Array;
  readonly tableOf: Int32Array;
  readonly headingAt: Int32Array;
  readonly fences: Fence[] = [];
  readonly tables: Table[] = [];
  readonly headings: Heading[] = [];
  private readonly headingStack: number[] = [];
  private readonly cachedLine = new Int32Array(TEXT_CACHE_MASK + 1).fill(-1);
  private readonly cachedText: string[] = new Array<string>(TEXT_CACHE_MASK + 1).fill('');

  constructor(readonly content: string) {
    const length = content.length;
    // One pass over the characters: line starts, and which lines hold only spaces and tabs.
    let starts = new Int32Array(Math.max(16, length >> 5));
    let blank = new Uint8Array(starts.length);
    let line = 0;
    let onlySpace = true;
    for (let i = 0; i < length; i++) {
      const c = content.charCodeAt(i);
      if (c === 10) {
        if (onlySpace) blank[line] = 1;
        onlySpace = true;
        if (i + 1 === length) break;
        if (++line + 1 >= starts.length) {
          const grown = new Int32Array(starts.length * 2);
          grown.set(starts);
          starts = grown;
          const grownBlank = new Uint8Array(grown.length);
          grownBlank.set(blank);
          blank = grownBlank;
        }
        starts[line] = i + 1;
      } else if (onlySpace && c !== 32 && c !== 9 && c !== 13) {
        onlySpace = false;
      }
    }
    if (onlySpace && content.charCodeAt(length - 1) !== 10) blank[line] = 1; // last line, no newline
    const n = line + 1;
    starts[n] = length;
    this.count = n;
    this.starts = starts.subarray(0, n + 1);
    this.blank = blank.subarray(0, n);
    this.kind = new Uint8Array(n);
    this.outer = new Uint8Array(n).fill(UNSET);
    this.inner = new Uint8Array(n);
    this.fenceOf = new Int32Array(n).fill(-1);
    this.tableOf = new Int32Array(n).fill(-1);
    this.headingAt = new Int32Array(n).fill(-1);
  }

  /**
   * Line i without its line ending. The scan reads a line and the next one several times and
   * rarely looks further, so a small direct-mapped cache saves most slices.
   */
  text(i: number): string {
    const slot = i & TEXT_CACHE_MASK;
    if (this.cachedLine[slot] === i) return this.cachedText[slot] as string;
    const start = this.starts[i] as number;
    let end = this.starts[i + 1] as number;
    const content = this.content;
    if (end > start && content.charCodeAt(end - 1) === 10) end--;
    if (end > start && content.charCodeAt(end - 1) === 13) end--;
    const text = content.slice(start, end);
    this.cachedLine[slot] = i;
    this.cachedText[slot] = text;
    return text;
  }

  /** Marks line i as inside a unit: never a block-level boundary, `inner` in a fallback. */
  private internal(i: number, inner: number): void {
    this.outer[i] = FORBIDDEN;
    this.inner[i] = inner;
  }

  private addHeading(line: number, level: number, text: string): void {
    const stack = this.headingStack;
    while (
      stack.length > 0 &&
      (this.headings[stack[stack.length - 1] as number] as Heading).level >= level
    ) {
      stack.pop();
    }
    const id = this.headings.length;
    this.headings.push({ level, label: headingLabel(level, text), parent: stack.at(-1) ?? -1 });
    stack.push(id);
    this.headingAt[line] = id;
  }

  scan(): void {
    let i = 0;
    let paragraphStart = -1; // first line of the paragraph the previous Text line belongs to
    while (i < this.count) {
      const text = this.text(i);
      if (this.blank[i]) {
        this.kind[i] = Kind.Blank;
        paragraphStart = -1;
        i++;
        continue;
      }
      const indent = indentOf(text);
      const next = this.blockAt(i, text, indent);
      if (next !== -1) {
        paragraphStart = -1;
        i = next;
        continue;
      }
      // Paragraph text; a setext underline below it turns the paragraph into a heading.
      this.kind[i] = Kind.Text;
      if (paragraphStart === -1) paragraphStart = i;
      if (i + 1 < this.count && SETEXT.test(this.text(i + 1)) && indent <= 3) {
        const underline = this.text(i + 1).trim();
        const level = underline.startsWith('=') ? 1 : 2;
        const title: string[] = [];
        for (let k = paragraphStart; k <= i; k++) title.push(this.text(k).trim());
        this.addHeading(paragraphStart, level, title.join(' '));
        this.kind[i + 1] = Kind.SetextUnderline;
        this.internal(i + 1, FORBIDDEN);
        paragraphStart = -1;
        i += 2;
        continue;
      }
      i++;
    }
  }

  /** Recognises a block starting at line i; returns the line after it, or -1 for paragraph text. */
  private blockAt(i: number, text: string, indent: number): number {
    if (indent <= 3) {
      const fence = fenceOpening(text);
      if (fence) return this.fence(i, fence.marker, false, FORBIDDEN);
      const atx = text.charCodeAt(indent) === 35 /* # */ ? ATX.exec(text) : null;
      if (atx) {
        this.kind[i] = Kind.Heading;
        this.addHeading(i, (atx[1] as string).length, atx[2] ?? '');
        return i + 1;
      }
    }
    if (this.tableStartsAt(i)) return this.table(i);
    if (indent <= 3 && RULE.test(text)) {
      this.kind[i] = Kind.Rule;
      return i + 1;
    }
    const list = LIST.exec(text);
    if (list) return this.listItem(i, list);
    if (QUOTE.test(text)) {
      this.kind[i] = Kind.Quote;
      return i + 1;
    }
    return -1;
  }

  private tableStartsAt(i: number): boolean {
    if (i + 1 >= this.count) return false;
    const header = this.text(i);
    if (!header.includes('|')) return false;
    const delimiter = this.text(i + 1);
    return DELIMITER.test(delimiter) && cellCount(header) === cellCount(delimiter);
  }

  private isRow(i: number): boolean {
    if (this.blank[i]) return false;
    const text = this.text(i);
    if (!text.includes('|')) return false;
    const indent = indentOf(text);
    return !(indent <= 3 && (fenceOpening(text) !== null || ATX.test(text)));
  }

  /** Header, delimiter and data rows. Header + delimiter + first row are one unit. */
  private table(i: number): number {
    const id = this.tables.length;
    let end = i + 2;
    while (end < this.count && this.isRow(end)) end++;
    this.tables.push({ header: i, firstRow: i + 2, end });
    for (let k = i; k < end; k++) {
      this.kind[k] = Kind.Table;
      this.tableOf[k] = id;
    }
    this.internal(i + 1, FORBIDDEN);
    if (i + 2 < end) this.internal(i + 2, FORBIDDEN);
    for (let k = i + 3; k < end; k++) this.outer[k] = PRI_TABLE_ROW;
    return end;
  }

  /**
   * A fenced code block from its opening line to its closing line (or the end of the document).
   * Inside, a chunk may end only between two code lines, and only when the block alone overflows
   * a chunk (PRI_CODE_LINE in `inner`); the chunker then closes and re-opens the fence.
   */
  fence(i: number, marker: string, inItem: boolean, openerInner: number): number {
    const id = this.fences.length;
    const opener = this.text(i);
    let close = -1;
    for (let k = i + 1; k < this.count; k++) {
      if (!this.blank[k] && closesFence(this.text(k), marker)) {
        close = k;
        break;
      }
    }
    const last = close === -1 ? this.count - 1 : close;
    const indent = opener.slice(0, opener.length - opener.trimStart().length);
    this.fences.push({ open: i, close, closeLine: `${indent}${marker}\n` });
    for (let k = i; k <= last; k++) {
      this.kind[k] = Kind.Fence;
      this.fenceOf[k] = id;
    }
    if (inItem) this.internal(i, openerInner);
    for (let k = i + 1; k <= last; k++) {
      this.internal(k, k >= i + 2 && k !== close ? PRI_CODE_LINE : FORBIDDEN);
    }
    return last + 1;
  }

  /** A new block that ends a lazy continuation of a list item. */
  private interrupts(i: number): boolean {
    const text = this.text(i);
    if (indentOf(text) > 3) return false;
    return (
      fenceOpening(text) !== null ||
      ATX.test(text) ||
      RULE.test(text) ||
      LIST.test(text) ||
      QUOTE.test(text) ||
      this.tableStartsAt(i)
    );
  }

  /**
   * A list item with everything that belongs to it: more-indented lines (continuations, nested
   * items, fenced code), lazy continuation lines, and blank lines followed by a line indented to
   * the item's content. One unit; inside it a chunk may end only when the item alone overflows.
   */
  private listItem(i: number, m: RegExpExecArray): number {
    const markerIndent = (m[1] as string).length;
    const spaces = (m[3] as string).length;
    const contentIndent =
      markerIndent + (m[2] as string).length + (spaces === 0 || spaces > 4 ? 1 : spaces);
    this.kind[i] = Kind.List;
    let k = i + 1;
    let afterBlank = false;
    while (k < this.count) {
      if (this.blank[k]) {
        let next = k;
        while (next < this.count && this.blank[next]) next++;
        if (next === this.count || indentOf(this.text(next)) < contentIndent) break;
        for (; k < next; k++) {
          this.kind[k] = Kind.List;
          this.internal(k, PRI_LINE);
        }
        afterBlank = true;
        continue;
      }
      const text = this.text(k);
      const innerPri = afterBlank
        ? PRI_PARAGRAPH
        : LIST.test(text.trimStart())
          ? PRI_LIST_ITEM
          : PRI_LINE;
      if (indentOf(text) > markerIndent) {
        const fence = fenceOpening(text);
        if (fence) {
          k = this.fence(k, fence.marker, true, innerPri);
        } else {
          this.kind[k] = Kind.List;
          this.internal(k, innerPri);
          k++;
        }
      } else if (!afterBlank && !this.interrupts(k)) {
        this.kind[k] = Kind.List; // lazy continuation of the item's paragraph
        this.internal(k, PRI_LINE);
        k++;
      } else {
        break;
      }
      afterBlank = false;
    }
    return k;
  }
}

/** Fills the block-level priorities not fixed by the scan, and the heading in effect per line. */
function finish(s: Scanner): Int32Array {
  const lastHeading = new Int32Array(s.count);
  let current = -1;
  let lastNonBlankIsHeading = false;
  for (let i = 0; i < s.count; i++) {
    const heading = s.headingAt[i] as number;
    if (heading !== -1) current = heading;
    lastHeading[i] = current;
    if (s.outer[i] === UNSET) {
      const prev = i - 1;
      let pri: number;
      if (i === 0) pri = FORBIDDEN;
      else if (heading !== -1) pri = (s.headings[heading] as Heading).level;
      else if (s.blank[i]) pri = lastNonBlankIsHeading ? PRI_AFTER_HEADING : PRI_LINE;
      else if (lastNonBlankIsHeading) pri = PRI_AFTER_HEADING;
      else if (s.blank[prev]) pri = PRI_PARAGRAPH;
      else if (s.kind[i] === Kind.List) pri = PRI_LIST_ITEM;
      else pri = PRI_LINE;
      s.outer[i] = pri;
    }
    if (!s.blank[i]) {
      const kind = s.kind[i];
      lastNonBlankIsHeading = kind === Kind.Heading || kind === Kind.SetextUnderline;
    }
  }
  return lastHeading;
}

export function scanMarkdown(content: string): Scan {
  const s = new Scanner(content);
  s.scan();
  const lastHeading = finish(s);
  const { count, outer } = s;
  const nextOuter = new Int32Array(count);
  let next = count;
  for (let i = count - 1; i >= 0; i--) {
    nextOuter[i] = next;
    if (outer[i] !== FORBIDDEN) next = i;
  }
  return {
    content,
    count: s.count,
    starts: s.starts,
    kind: s.kind,
    blank: s.blank,
    outer: s.outer,
    inner: s.inner,
    nextOuter,
    fenceOf: s.fenceOf,
    tableOf: s.tableOf,
    headingAt: s.headingAt,
    lastHeading,
    fences: s.fences,
    tables: s.tables,
    headings: s.headings,
  };
}

/** "# Guide > ## Install" for a heading id, '' for -1. */
export function headingPath(scan: Scan, heading: number): string {
  const labels: string[] = [];
  for (let h = heading; h !== -1; h = (scan.headings[h] as Heading).parent) {
    labels.push((scan.headings[h] as Heading).label);
  }
  return labels.reverse().join(' > ');
}
