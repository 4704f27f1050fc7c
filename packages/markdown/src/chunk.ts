// Structure-aware chunking of Markdown for a model to read (docs/specs.md, "structure-aware
// chunking").
//
// The document is scanned once into lines (scan.ts). Each line boundary gets a split priority
// (before a `#` heading best, then `##` ... `######`, after a blank line, between table rows,
// before a list item, any other line) or is forbidden: inside a "unit" (a table's header +
// delimiter + first row, a fenced code block, a list item with its continuation lines, a setext
// heading with its underline). A chunk takes the window of `maxChunkSize` characters (minus the
// context it repeats) and ends, in order of preference:
//  1. at the best-priority boundary in the second half of the window (the farthest one of that
//     priority), so a chunk is at least half full whenever the structure allows and an early
//     heading does not make a tiny chunk (the first chunk is what the agent sees; every chunk
//     costs a model call);
//  2. before the unit that overflows the window, when that unit fits whole in the next chunk;
//  3. otherwise the unit is too big for any chunk and is cut here: between its own lines in the
//     second half of the window (a list item after a blank line or before a nested item; a
//     fenced code block between two code lines);
//  4. inside the line that overflows, when that line could not fit whole in any chunk;
//  5. at the last boundary between the unit's lines, else before the unit;
//  6. inside a line after all, else an oversized chunk.
// Cutting inside a fenced code block appends a closing fence to the chunk, and the next chunk
// re-opens the fence with the original opening line (same info string): every chunk's code
// blocks are closed and keep their language. We chose this over one oversized chunk, because a
// megabyte of minified code in a fence must not make a chunk the model cannot take, and an
// unclosed fence (which runs to the end of the document) must not swallow the rest of the page.
// A line is cut at the last sentence end (". ", "! ", "? " before an uppercase letter) in the
// second half of the window, else after the last space or tab there, else hard (never inside a
// surrogate pair or a CRLF). A table row or a closing fence line is never cut: a row (or header
// + delimiter + first row) longer than the chunk makes one oversized chunk, the only case where
// `content` exceeds `maxChunkSize` besides degenerate sizes where the repeated context alone (a
// table header, a re-opened fence) nearly fills it.
//
// Linear: the scan visits each line a bounded number of times; each chunk scans its own window
// once (a chunk ends in its window's second half, or before a unit that then fills the next).
import {
  FORBIDDEN,
  Kind,
  PRI_CODE_LINE,
  headingPath,
  scanMarkdown,
  type Fence,
  type Scan,
  type Table,
} from './scan';

export interface MarkdownChunk {
  /**
   * The text the model reads: repeated context (the last `overlapLines` lines of the previous
   * chunk, or a table's header + delimiter row, or a re-opened code fence), then the original
   * text `content.slice(startChar, endChar)`, then a closing fence when the chunk ends inside a
   * code block too long for one chunk.
   */
  content: string;
  /** Offset in the original content where this chunk's own (non-repeated) text starts. */
  startChar: number;
  /** Exclusive end offset in the original content. */
  endChar: number;
  /** "## Products (rows 51-100 of 200)", "# Guide > ## Install"; '' when nothing applies. */
  structuralContext: string;
  /** Another chunk follows. */
  hasMore: boolean;
}

export interface ChunkOptions {
  /** Largest `content` of a chunk, in UTF-16 code units (string length). Default 100 000. */
  maxChunkSize?: number;
  /** Lines of the previous chunk repeated at the start of the next one. Default 3. */
  overlapLines?: number;
}

export const DEFAULT_MAX_CHUNK_SIZE = 100_000;
export const DEFAULT_OVERLAP_LINES = 3;

/** Overlap lines never take more than this share of a chunk. */
const OVERLAP_SHARE = 4;

interface Cut {
  end: number;
  /** The line containing `end` (its first character is at or before `end`); `count` at the end. */
  line: number;
  /** Closing fence appended to the chunk ('' unless cut inside a code block). */
  suffix: string;
}

export function chunkMarkdownByStructure(
  content: string,
  options: ChunkOptions = {},
): MarkdownChunk[] {
  const maxChunkSize = options.maxChunkSize ?? DEFAULT_MAX_CHUNK_SIZE;
  const overlapLines = options.overlapLines ?? DEFAULT_OVERLAP_LINES;
  if (!Number.isSafeInteger(maxChunkSize) || maxChunkSize < 1) {
    throw new RangeError(`maxChunkSize must be a positive integer, got ${maxChunkSize}`);
  }
  if (!Number.isSafeInteger(overlapLines) || overlapLines < 0) {
    throw new RangeError(`overlapLines must be a non-negative integer, got ${overlapLines}`);
  }
  if (content.length === 0) return [];
  return new Chunker(scanMarkdown(content), maxChunkSize, overlapLines).run();
}

/** The best (lowest) priority seen, the farthest line on ties. */
class Best {
  line = -1;
  private priority = 256;

  reset(): void {
    this.line = -1;
    this.priority = 256;
  }

  offer(line: number, priority: number): void {
    if (priority <= this.priority) {
      this.line = line;
      this.priority = priority;
    }
  }
}

function isUppercase(c: number, ch: string): boolean {
  if (c >= 65 && c <= 90) return true;
  return c > 127 && /\p{Lu}/u.test(ch);
}

class Chunker {
  private readonly content: string;
  private readonly n: number;
  private readonly starts: Int32Array;

  constructor(
    private readonly scan: Scan,
    private readonly max: number,
    private readonly overlapLines: number,
  ) {
    this.content = scan.content;
    this.n = scan.content.length;
    this.starts = scan.starts;
  }

  run(): MarkdownChunk[] {
    const chunks: MarkdownChunk[] = [];
    let pos = 0;
    let line = 0;
    let prevStart = 0;
    while (pos < this.n) {
      const prefix = this.prefix(pos, line, prevStart);
      const cut = this.findEnd(pos, line, prefix.length);
      chunks.push({
        content: prefix + this.content.slice(pos, cut.end) + cut.suffix,
        startChar: pos,
        endChar: cut.end,
        structuralContext: this.context(pos, line, cut),
        hasMore: cut.end < this.n,
      });
      prevStart = pos;
      pos = cut.end;
      line = cut.line;
    }
    return chunks;
  }

  private start(line: number): number {
    return this.starts[line] as number;
  }

  private fenceBody(line: number): Fence | null {
    const id = this.scan.fenceOf[line] as number;
    if (id === -1) return null;
    const fence = this.scan.fences[id] as Fence;
    return line > fence.open ? fence : null;
  }

  /** The table whose data rows continue at the start of `line` (not its first row), if any. */
  private tableContinuing(line: number): Table | null {
    if (line >= this.scan.count) return null;
    const id = this.scan.tableOf[line] as number;
    if (id === -1) return null;
    const table = this.scan.tables[id] as Table;
    return line > table.firstRow ? table : null;
  }

  /**
   * Context repeated before the chunk's own text. Inside a table: its header and delimiter row
   * (never previous data rows, which would be extracted twice). Inside a code block: the opening
   * fence line, then overlap lines of code. At a heading: nothing (no structure was cut).
   * Elsewhere: the last `overlapLines` non-blank lines of the previous chunk, stopping at a table
   * or code block (a partial table or a stray fence line would mislead the model).
   */
  private prefix(pos: number, line: number, prevStart: number): string {
    const atLineStart = pos === this.start(line);
    const fence = this.fenceBody(line);
    if (fence) {
      const reopen = this.content.slice(this.start(fence.open), this.start(fence.open + 1));
      if (!atLineStart) return reopen;
      const from = Math.max(fence.open + 1, line - this.overlapLines);
      return reopen + this.capped(from, line - 1, prevStart);
    }
    if (!atLineStart || pos === 0) return '';
    const table = this.tableContinuing(line);
    if (table) return this.content.slice(this.start(table.header), this.start(table.header + 2));
    if (this.scan.headingAt[line] !== -1) return '';
    return this.overlap(line, prevStart);
  }

  private overlap(line: number, prevStart: number): string {
    if (this.overlapLines === 0) return '';
    const { blank, tableOf, fenceOf } = this.scan;
    let k = line - 1;
    while (k >= 0 && this.start(k) >= prevStart && blank[k]) k--;
    const last = k;
    let first = line;
    let taken = 0;
    for (; k >= 0 && this.start(k) >= prevStart && taken < this.overlapLines; k--) {
      if (tableOf[k] !== -1 || fenceOf[k] !== -1) break;
      if (!blank[k]) taken++;
      first = k;
    }
    if (taken === 0) return '';
    return this.capped(first, last, prevStart);
  }

  /** Lines first..last (inclusive), dropping leading lines until they fit the overlap share. */
  private capped(first: number, last: number, prevStart: number): string {
    const cap = Math.floor(this.max / OVERLAP_SHARE);
    const end = this.start(last + 1);
    let from = first;
    while (from <= last && (this.start(from) < prevStart || end - this.start(from) > cap)) from++;
    while (from <= last && this.scan.blank[from]) from++;
    return from <= last ? this.content.slice(this.start(from), end) : '';
  }

  private findEnd(pos: number, line: number, prefixLength: number): Cut {
    const { count, outer, inner } = this.scan;
    const avail = Math.max(1, this.max - prefixLength);
    const limit = pos + avail;
    if (limit >= this.n) return { end: this.n, line: count, suffix: '' };
    const mid = pos + Math.floor(avail / 2);
    const outerBest = new Best();
    const outerUpper = new Best();
    let lastOuter = -1;
    // Inner boundaries of the unit that overflows the window: the lines after the last outer one.
    const innerUpper = new Best();
    let innerLast = -1;
    let j = line + 1;
    for (; j < count && this.start(j) <= limit; j++) {
      const start = this.start(j);
      const o = outer[j] as number;
      if (o !== FORBIDDEN) {
        outerBest.offer(j, o);
        if (start > mid) outerUpper.offer(j, o);
        lastOuter = j;
        innerUpper.reset();
        innerLast = -1;
        continue;
      }
      const i = inner[j] as number;
      if (i === FORBIDDEN) continue;
      if (i === PRI_CODE_LINE && start + this.closeLength(j) > limit) continue;
      innerLast = j;
      if (start > mid) innerUpper.offer(j, i);
    }
    // In order of preference:
    // 1. the best boundary in the second half of the window;
    if (outerUpper.line !== -1) return this.at(outerUpper.line);
    // 2. before the unit that overflows the window, when it fits whole in the next chunk;
    if (lastOuter !== -1 && this.fitsInNextChunk(lastOuter, pos)) return this.at(outerBest.line);
    // The unit is cut anyway, so it starts in this chunk:
    // 3. the best boundary between its lines in the second half of the window;
    if (innerUpper.line !== -1) return this.at(innerUpper.line);
    // 4. inside the line that overflows, when that line could not fit whole in any chunk;
    const lineCut = this.lineToCut(pos, Math.max(line, lastOuter), j, limit);
    if (lineCut !== -1 && !this.lineFitsAChunk(lineCut, pos))
      return this.cutInLine(pos, lineCut, limit, mid);
    // 5. the last boundary between its lines, then before it (a line stays whole if it can);
    if (innerLast !== -1) return this.at(innerLast);
    if (lastOuter !== -1) return this.at(outerBest.line);
    // 6. inside a line after all, else an oversized chunk (a table row is never cut).
    if (lineCut !== -1) return this.cutInLine(pos, lineCut, limit, mid);
    return this.firstAllowedFrom(j);
  }

  /**
   * The line to cut inside when nothing else fits: the one running past the limit, else the
   * nearest one before it (within the overflowing unit) that may be cut and has room. A table row
   * or a closing fence may not be cut; a short line may have no room once the closing fence
   * appended to a chunk cut inside code is counted. -1 when none.
   */
  private lineToCut(pos: number, first: number, next: number, limit: number): number {
    for (let k = next - 1; k >= first; k--) {
      if (this.cuttable(k) && this.cutLimit(k, limit) > Math.max(pos, this.start(k))) return k;
      if (this.start(k) <= pos) break;
    }
    return -1;
  }

  /** The largest end of a cut inside `line`: before its newline, with room for a closing fence. */
  private cutLimit(line: number, limit: number): number {
    const fence = this.fenceBody(line);
    const suffix = fence ? fence.closeLine.length + 1 : 0;
    return Math.min(limit, this.start(line + 1) - 1) - suffix;
  }

  /** Whether `line` fits whole in the chunk that would start there (context and closing fence included). */
  private lineFitsAChunk(line: number, prevStart: number): boolean {
    const start = this.start(line);
    const length = this.start(line + 1) - start;
    const close = this.fenceBody(line)?.closeLine.length ?? 0;
    return length + close + this.prefix(start, line, prevStart).length <= this.max;
  }

  private cuttable(line: number): boolean {
    if (this.scan.kind[line] === Kind.Table) return false;
    const fence = this.scan.fenceOf[line] as number;
    return fence === -1 || (this.scan.fences[fence] as Fence).close !== line;
  }

  /** Whether the unit starting at `line` fits a chunk that starts there (its context included). */
  private fitsInNextChunk(line: number, prevStart: number): boolean {
    const start = this.start(line);
    const end = this.start(this.scan.nextOuter[line] as number);
    return end - start + this.prefix(start, line, prevStart).length <= this.max;
  }

  private closeLength(line: number): number {
    return this.fenceBody(line)?.closeLine.length ?? 0;
  }

  /** A cut at the start of `line`; inside a code block the chunk gets a closing fence. */
  private at(line: number): Cut {
    const { outer } = this.scan;
    const fence = outer[line] === FORBIDDEN ? this.fenceBody(line) : null;
    return { end: this.start(line), line, suffix: fence ? fence.closeLine : '' };
  }

  /** An oversized chunk: the first boundary allowed at all (a table row is never cut). */
  private firstAllowedFrom(line: number): Cut {
    const { count, outer, inner } = this.scan;
    for (let j = line; j < count; j++) {
      if (outer[j] !== FORBIDDEN || inner[j] !== FORBIDDEN) return this.at(j);
    }
    return { end: this.n, line: count, suffix: '' };
  }

  /** Cuts inside one long line: a sentence end, else whitespace, else hard. */
  private cutInLine(pos: number, line: number, limit: number, mid: number): Cut {
    const fence = this.fenceBody(line);
    const suffix = fence ? `\n${fence.closeLine}` : '';
    const from = Math.max(pos, this.start(line));
    const hi = Math.max(from + 1, this.cutLimit(line, limit));
    const lo = Math.max(from, mid);
    const end = this.sentenceCut(lo, hi, from) ?? this.spaceCut(lo, hi) ?? this.hardCut(from, hi);
    return { end, line, suffix };
  }

  /** Largest cut in (lo, hi] right after ". " (or "! ", "? ") before an uppercase letter. */
  private sentenceCut(lo: number, hi: number, from: number): number | null {
    const s = this.content;
    for (let k = Math.min(hi - 1, this.n - 2); k >= lo && k - 1 >= from; k--) {
      if (s.charCodeAt(k) !== 32) continue;
      const p = s.charCodeAt(k - 1);
      if (p !== 46 && p !== 33 && p !== 63) continue;
      if (isUppercase(s.charCodeAt(k + 1), s.charAt(k + 1))) return k + 1;
    }
    return null;
  }

  /** Largest cut in (lo, hi] right after a space or tab. */
  private spaceCut(lo: number, hi: number): number | null {
    const s = this.content;
    for (let k = hi - 1; k >= lo; k--) {
      const c = s.charCodeAt(k);
      if (c === 32 || c === 9) return k + 1;
    }
    return null;
  }

  /** `hi`, moved off the middle of a surrogate pair or a CRLF. */
  private hardCut(from: number, hi: number): number {
    const s = this.content;
    const low = s.charCodeAt(hi);
    const high = s.charCodeAt(hi - 1);
    const splitsPair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
    const splitsCrlf = high === 13 && low === 10;
    if (!splitsPair && !splitsCrlf) return hi;
    return hi - 1 > from ? hi - 1 : hi + 1;
  }

  private rowsLabel(table: Table, first: number, last: number): string {
    const path = headingPath(this.scan, this.scan.lastHeading[table.header] as number);
    const rows = `(rows ${first}-${last} of ${table.end - table.firstRow})`;
    return path === '' ? `Table ${rows}` : `${path} ${rows}`;
  }

  /**
   * The heading path at the chunk's first non-blank line; when the chunk starts or ends inside a
   * table, that table's heading path with the data rows the chunk holds (1-based, header excluded).
   */
  private context(pos: number, line: number, cut: Cut): string {
    const startTable = pos === this.start(line) ? this.tableContinuing(line) : null;
    const endTable =
      cut.end < this.n && cut.end === this.start(cut.line) ? this.tableContinuing(cut.line) : null;
    const parts: string[] = [];
    if (startTable) {
      const last = endTable === startTable ? cut.line : startTable.end;
      parts.push(
        this.rowsLabel(startTable, line - startTable.firstRow + 1, last - startTable.firstRow),
      );
    }
    if (endTable && endTable !== startTable) {
      parts.push(this.rowsLabel(endTable, 1, cut.line - endTable.firstRow));
    }
    if (parts.length > 0) return parts.join('; ');
    const { blank, lastHeading } = this.scan;
    const lastLine = cut.end === this.start(cut.line) ? cut.line - 1 : cut.line;
    let k = line;
    while (k < lastLine && blank[k]) k++;
    return headingPath(this.scan, lastHeading[k] as number);
  }
}
