import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkMarkdownByStructure, type MarkdownChunk } from './chunk';

// ---------------------------------------------------------------------------------------------
// Checkers shared by the examples and the properties

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
const DELIMITER = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** Splits text into lines and marks which are inside (or are) a fenced code block. */
function codeLines(text: string): { line: string; code: boolean }[] {
  let open: string | null = null;
  return text.split('\n').map((line) => {
    if (open === null) {
      const m = FENCE_OPEN.exec(line);
      if (m && !((m[1] as string).startsWith('`') && (m[2] as string).includes('`'))) {
        open = m[1] as string;
        return { line, code: true };
      }
      return { line, code: false };
    }
    const m = FENCE_CLOSE.exec(line);
    if (m && (m[1] as string)[0] === open[0] && (m[1] as string).length >= open.length) open = null;
    return { line, code: true };
  });
}

function endsInsideFence(text: string): boolean {
  let open: string | null = null;
  for (const line of text.split('\n')) {
    if (open === null) {
      const m = FENCE_OPEN.exec(line);
      if (m && !((m[1] as string).startsWith('`') && (m[2] as string).includes('`'))) {
        open = m[1] as string;
      }
    } else {
      const m = FENCE_CLOSE.exec(line);
      if (m && (m[1] as string)[0] === open[0] && (m[1] as string).length >= open.length) {
        open = null;
      }
    }
  }
  return open !== null;
}

/** Every run of table lines (outside code) starts with a header row and a delimiter row. */
function tablesHaveHeaders(text: string): boolean {
  const lines = codeLines(text);
  for (let i = 0; i < lines.length; i++) {
    const { line, code } = lines[i] as { line: string; code: boolean };
    if (code || !line.startsWith('|')) continue;
    const previous = lines[i - 1];
    if (previous && !previous.code && previous.line.startsWith('|')) continue;
    const delimiter = lines[i + 1];
    if (!delimiter || delimiter.code || !DELIMITER.test(delimiter.line)) return false;
  }
  return true;
}

function expectTiling(content: string, chunks: MarkdownChunk[]): void {
  if (content === '') {
    expect(chunks).toEqual([]);
    return;
  }
  expect(chunks.length).toBeGreaterThan(0);
  expect(chunks[0]?.startChar).toBe(0);
  expect(chunks.at(-1)?.endChar).toBe(content.length);
  chunks.forEach((chunk, i) => {
    expect(chunk.endChar).toBeGreaterThan(chunk.startChar);
    if (i > 0) expect(chunk.startChar).toBe(chunks[i - 1]?.endChar);
    expect(chunk.hasMore).toBe(i < chunks.length - 1);
    const own = content.slice(chunk.startChar, chunk.endChar);
    const suffix = chunk.content.endsWith(own)
      ? ''
      : chunk.content.slice(chunk.content.lastIndexOf(own) + own.length);
    // content = repeated context + own text + (a closing fence when cut inside code)
    expect(chunk.content.includes(own)).toBe(true);
    if (suffix !== '') expect(suffix).toMatch(/^\n?[ \t]*(`{3,}|~{3,})\n$/);
  });
  expect(chunks.map((c) => content.slice(c.startChar, c.endChar)).join('')).toBe(content);
}

const chunk = (content: string, maxChunkSize: number, overlapLines = 3) =>
  chunkMarkdownByStructure(content, { maxChunkSize, overlapLines });

const own = (content: string, c: MarkdownChunk) => content.slice(c.startChar, c.endChar);

function table(rows: number, label = 'item'): string {
  const body = Array.from({ length: rows }, (_, i) => `| ${label} ${i + 1} | ${(i + 1) * 7} |`);
  return ['| name | price |', '| --- | ---: |', ...body].join('\n');
}

const sentence = (i: number) => `Sentence number ${i} talks about the catalog.`;

// ---------------------------------------------------------------------------------------------

describe('chunkMarkdownByStructure: basics', () => {
  it('returns no chunks for empty input', () => {
    expect(chunkMarkdownByStructure('')).toEqual([]);
  });

  it('returns the input as one chunk when it fits', () => {
    const content = '# Guide\n\nSome text.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n';
    expect(chunkMarkdownByStructure(content)).toEqual([
      {
        content,
        startChar: 0,
        endChar: content.length,
        structuralContext: '# Guide',
        hasMore: false,
      },
    ]);
    const exact = 'x'.repeat(50);
    expect(chunk(exact, 50)).toEqual([
      { content: exact, startChar: 0, endChar: 50, structuralContext: '', hasMore: false },
    ]);
  });

  it('defaults to 100 000 characters', () => {
    const paragraph = Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ');
    const content = Array.from({ length: 120 }, () => paragraph).join('\n\n'); // ~ 220 kB
    const chunks = chunkMarkdownByStructure(content);
    expect(chunks.length).toBe(3);
    for (const c of chunks) expect(c.content.length).toBeLessThanOrEqual(100_000);
    expectTiling(content, chunks);
  });

  it('rejects invalid options', () => {
    expect(() => chunk('abc', 0)).toThrow(RangeError);
    expect(() => chunk('abc', 1.5)).toThrow(RangeError);
    expect(() => chunk('abc', 10, -1)).toThrow(RangeError);
  });

  it('fills chunks: at least half full when the structure allows', () => {
    const content = Array.from({ length: 200 }, (_, i) => sentence(i)).join('\n\n');
    const chunks = chunk(content, 1000);
    for (const c of chunks.slice(0, -1)) {
      expect(c.content.length).toBeGreaterThan(500);
      expect(c.content.length).toBeLessThanOrEqual(1000);
    }
    expectTiling(content, chunks);
  });
});

describe('tables', () => {
  const content = `# Shop\n\n## Products\n\n${table(200)}\n`;
  const chunks = chunk(content, 800);

  it('never splits a row: every chunk ends at the end of a complete row', () => {
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(content[c.endChar - 1]).toBe('\n');
      const rows = own(content, c)
        .split('\n')
        .filter((l) => l.startsWith('| item'));
      for (const row of rows) expect(row).toMatch(/^\| item \d+ \| \d+ \|$/);
    }
    expectTiling(content, chunks);
  });

  it('the first chunk holds complete rows only', () => {
    const first = chunks[0] as MarkdownChunk;
    const lines = first.content.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^\| item \d+ \| \d+ \|$/);
    expect(first.content.length).toBeLessThanOrEqual(800);
  });

  it('repeats the header and delimiter row in every chunk that continues the table', () => {
    for (const c of chunks.slice(1)) {
      expect(c.content.startsWith('| name | price |\n| --- | ---: |\n| item ')).toBe(true);
      expect(c.content.length).toBeLessThanOrEqual(800);
    }
    for (const c of chunks) expect(tablesHaveHeaders(c.content)).toBe(true);
  });

  it('repeats the header even with overlapLines 0', () => {
    for (const c of chunk(content, 800, 0).slice(1)) {
      expect(c.content.startsWith('| name | price |\n| --- | ---: |\n| item ')).toBe(true);
    }
  });

  it('does not duplicate data rows across chunks (the header is the only context)', () => {
    const seen = chunks.flatMap((c) =>
      c.content.split('\n').filter((l) => l.startsWith('| item ')),
    );
    expect(seen.length).toBe(200);
    expect(new Set(seen).size).toBe(200);
  });

  it('says which rows each chunk holds', () => {
    let next = 1;
    for (const c of chunks) {
      const m = /^# Shop > ## Products \(rows (\d+)-(\d+) of 200\)$/.exec(c.structuralContext);
      expect(m, c.structuralContext).not.toBeNull();
      const [first, last] = [Number(m?.[1]), Number(m?.[2])];
      expect(first).toBe(next);
      const rows = c.content.split('\n').filter((l) => l.startsWith('| item '));
      expect(rows[0]).toBe(`| item ${first} | ${first * 7} |`);
      expect(rows.at(-1)).toBe(`| item ${last} | ${last * 7} |`);
      next = last + 1;
    }
    expect(next).toBe(201);
  });

  it('names a table without a heading "Table (rows a-b of n)"', () => {
    const c = chunk(`${table(50)}\n`, 400);
    expect(c[0]?.structuralContext).toMatch(/^Table \(rows 1-\d+ of 50\)$/);
    expect(c.at(-1)?.structuralContext).toMatch(/^Table \(rows \d+-50 of 50\)$/);
  });

  it('lists both tables when a chunk ends one split table and starts the next', () => {
    const doc = `## A\n\n${table(45, 'a')}\n\n## B\n\n${table(60, 'b')}\n`;
    const contexts = chunk(doc, 600).map((c) => c.structuralContext);
    expect(contexts).toEqual([
      '## A (rows 1-39 of 45)',
      '## A (rows 40-45 of 45); ## B (rows 1-30 of 60)',
      '## B (rows 31-60 of 60)',
    ]);
  });

  it('makes one oversized chunk for a row longer than the chunk size rather than cutting it', () => {
    const long = `| big | ${'x'.repeat(300)} |`;
    const doc = `| name | value |\n| --- | --- |\n| small | 1 |\n${long}\n| small | 2 |\n`;
    const chunks = chunk(doc, 100, 0);
    expectTiling(doc, chunks);
    const holder = chunks.find((c) => c.content.includes(long)) as MarkdownChunk;
    expect(holder.content).toBe(`| name | value |\n| --- | --- |\n${long}\n`);
    for (const c of chunks) expect(tablesHaveHeaders(c.content)).toBe(true);
  });

  it('keeps the header, delimiter and first row together', () => {
    const doc = `Intro paragraph that is fairly long to fill the window.\n\n${table(3)}\n`;
    for (let max = 60; max < 140; max++) {
      const chunks = chunk(doc, max, 0);
      expectTiling(doc, chunks);
      for (const c of chunks) expect(tablesHaveHeaders(c.content)).toBe(true);
    }
  });
});

describe('headings', () => {
  // Three top-level sections of ~600 chars, each with three sub-sections of ~200 chars.
  const section = (a: number) =>
    [
      `# Part ${a}`,
      ...[1, 2, 3].map(
        (b) =>
          `## Part ${a}.${b}\n\n${[1, 2, 3].map((i) => sentence(a * 100 + b * 10 + i)).join(' ')}`,
      ),
    ].join('\n\n');
  const content = [1, 2, 3].map(section).join('\n\n') + '\n';

  it('ends chunks right before a heading', () => {
    const chunks = chunk(content, 900, 0);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks.slice(1)) expect(content.slice(c.startChar)).toMatch(/^#{1,2} Part/);
    expectTiling(content, chunks);
  });

  it('prefers a top-level section over a sub-section when both are in reach', () => {
    const chunks = chunk(content, 900, 0);
    for (const c of chunks.slice(1)) expect(content.slice(c.startChar)).toMatch(/^# Part/);
    expect(chunks.map((c) => c.structuralContext)).toEqual(['# Part 1', '# Part 2', '# Part 3']);
  });

  it('splits between sub-sections when a section does not fit', () => {
    const chunks = chunk(content, 300, 0);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.some((c) => content.slice(c.startChar).startsWith('## Part'))).toBe(true);
    for (const c of chunks.slice(1)) expect(content.slice(c.startChar)).toMatch(/^#{1,2} Part/);
    expect(chunks[1]?.structuralContext).toMatch(/^# Part \d > ## Part \d\.\d$/);
  });

  it('gives the heading path of the chunk start', () => {
    const doc = `# Guide\n\n## Install\n\n${Array.from({ length: 30 }, (_, i) => sentence(i)).join('\n\n')}\n`;
    const chunks = chunk(doc, 400);
    expect(chunks[0]?.structuralContext).toBe('# Guide');
    for (const c of chunks.slice(1)) expect(c.structuralContext).toBe('# Guide > ## Install');
  });

  it('treats setext headings as headings and never splits them from their underline', () => {
    const body = Array.from({ length: 8 }, (_, i) => sentence(i)).join('\n\n');
    const doc = `Catalog\n=======\n\n${body}\n\nPage two\n--------\n\n${body}\n`;
    const chunks = chunk(doc, 500, 0);
    expectTiling(doc, chunks);
    for (const c of chunks) {
      expect(c.content).not.toMatch(/^(=+|-+)\n/);
      expect(own(doc, c)).not.toMatch(/(Catalog|Page two)\n$/);
    }
    expect(chunks.at(-1)?.structuralContext).toBe('# Catalog > ## Page two');
  });

  it('returns no context when nothing applies', () => {
    const doc = Array.from({ length: 30 }, (_, i) => sentence(i)).join('\n\n');
    for (const c of chunk(doc, 300)) expect(c.structuralContext).toBe('');
  });
});

describe('fenced code', () => {
  const code = [
    '```python',
    'def f():',
    '',
    '# not a heading',
    '| not | a table |',
    '- not a list',
    '',
    '    return 1',
    '```',
  ].join('\n');
  const prose = Array.from({ length: 6 }, (_, i) => sentence(i)).join('\n\n');
  const content = `${prose}\n\n${code}\n\n${prose}\n\n${code.replaceAll('```', '~~~~')}\n\n${prose}\n`;

  it('never ends a chunk inside a code block that fits', () => {
    for (let max = 150; max <= 400; max += 7) {
      const chunks = chunk(content, max);
      expectTiling(content, chunks);
      for (const c of chunks) {
        expect(endsInsideFence(own(content, c))).toBe(false);
        expect(endsInsideFence(c.content)).toBe(false);
        expect(c.content.length).toBeLessThanOrEqual(max);
      }
    }
  });

  it('ignores a shorter fence of the same kind inside a longer one', () => {
    const doc = `Intro.\n\n\`\`\`\`md\n\`\`\`js\nx\n\`\`\`\n\n# inside\n\`\`\`\`\n\n${prose}\n`;
    for (let max = 40; max < 120; max += 3) {
      for (const c of chunk(doc, max)) expect(endsInsideFence(c.content)).toBe(false);
    }
  });

  it('splits a code block longer than a chunk between lines, closing and re-opening the fence', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `  value_${i} = compute(${i})`);
    const doc = `# Code\n\n\`\`\`python title="x.py"\n${lines.join('\n')}\n\`\`\`\n\nAfter.\n`;
    const chunks = chunk(doc, 600, 2);
    expectTiling(doc, chunks);
    expect(chunks.length).toBeGreaterThan(5);
    for (const [i, c] of chunks.entries()) {
      expect(c.content.length).toBeLessThanOrEqual(600);
      expect(endsInsideFence(c.content)).toBe(false);
      if (i > 0 && i < chunks.length - 1) {
        expect(c.content.startsWith('```python title="x.py"\n')).toBe(true);
      }
      if (c.hasMore && i < chunks.length - 2) expect(c.content.endsWith('\n```\n')).toBe(true);
    }
    // Overlap inside code: the two code lines before the cut come after the re-opened fence.
    const second = chunks[1] as MarkdownChunk;
    const before = doc.slice(0, second.startChar).split('\n').slice(-3, -1).join('\n');
    expect(second.content.startsWith(`\`\`\`python title="x.py"\n${before}\n`)).toBe(true);
    // Every code line is in exactly one chunk's own text.
    const seen = chunks.flatMap((c) => own(doc, c).split('\n')).filter((l) => l.includes('value_'));
    expect(seen).toEqual(lines);
  });

  it('treats an unclosed fence as running to the end of the document', () => {
    const doc = `Intro.\n\n\`\`\`\n${Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n')}\n`;
    const chunks = chunk(doc, 120, 0);
    expectTiling(doc, chunks);
    for (const c of chunks.slice(0, -1)) expect(endsInsideFence(c.content)).toBe(false);
  });
});

describe('lists', () => {
  const item = (i: number) =>
    [
      `- Item ${i} headline`,
      `  continuation of item ${i} that belongs to it`,
      `  another continuation line for ${i}`,
      `  - nested ${i}.1`,
      `  - nested ${i}.2`,
    ].join('\n');
  const content = `## List\n\n${Array.from({ length: 40 }, (_, i) => item(i)).join('\n')}\n`;

  it('keeps an item together with its continuation lines and nested items', () => {
    for (const max of [300, 450, 777, 1200]) {
      const chunks = chunk(content, max);
      expectTiling(content, chunks);
      for (const c of chunks.slice(1))
        expect(content.slice(c.startChar)).toMatch(/^- Item \d+ headline\n/);
    }
  });

  it('recognises *, + and ordered markers, and lazy continuation lines', () => {
    const doc = Array.from(
      { length: 30 },
      (_, i) => `${['*', '+', `${i + 1}.`][i % 3]} Entry ${i}\nlazy line ${i}\n   indented ${i}`,
    ).join('\n');
    const chunks = chunk(doc, 200);
    expectTiling(doc, chunks);
    for (const c of chunks.slice(1)) expect(doc.slice(c.startChar)).toMatch(/^(\*|\+|\d+\.) Entry/);
  });

  it('keeps blank-separated continuation paragraphs in the item', () => {
    const doc = Array.from(
      { length: 20 },
      (_, i) => `1. Step ${i}\n\n   Details of step ${i}.\n`,
    ).join('\n');
    for (const c of chunk(doc, 150).slice(1)) expect(doc.slice(c.startChar)).toMatch(/^1\. Step/);
  });

  it('cuts inside one list item only when the item alone does not fit', () => {
    const big = `- Big item\n${Array.from({ length: 40 }, (_, i) => `  - sub ${i}`).join('\n')}\n- Next item\n`;
    const chunks = chunk(big, 120, 0);
    expectTiling(big, chunks);
    for (const c of chunks.slice(1)) expect(big.slice(c.startChar)).toMatch(/^ {0,2}- /);
  });
});

describe('long lines', () => {
  it('splits a line longer than the chunk size at sentence boundaries', () => {
    const line = Array.from({ length: 60 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunk(line, 500);
    expectTiling(line, chunks);
    for (const c of chunks.slice(0, -1)) {
      expect(c.content.length).toBeLessThanOrEqual(500);
      expect(own(line, c)).toMatch(/catalog\. $/);
    }
    for (const c of chunks.slice(1)) expect(own(line, c)).toMatch(/^Sentence number/);
  });

  it('splits a line with no sentence end at whitespace, then hard', () => {
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    for (const c of chunk(words, 200).slice(0, -1)) expect(own(words, c)).toMatch(/ $/);
    const solid = 'ab'.repeat(500);
    const chunks = chunk(solid, 128);
    expectTiling(solid, chunks);
    expect(chunks.map((c) => c.content.length).slice(0, -1)).toEqual(Array(7).fill(128));
  });

  it('never cuts a surrogate pair or a CRLF', () => {
    const emoji = '😀'.repeat(200);
    for (const c of chunk(emoji, 51)) {
      expect(c.content.length % 2).toBe(0);
      expect(c.content.length).toBeLessThanOrEqual(51);
    }
    const crlf = `${'a'.repeat(99)}\r\n${'b'.repeat(99)}\r\n`;
    for (const c of chunk(crlf, 100, 0)) expect(crlf[c.startChar]).not.toBe('\n');
  });

  it('takes the upper-case check beyond ASCII', () => {
    const line = Array.from({ length: 40 }, (_, i) => `Été numéro ${i} fini.`).join(' ');
    for (const c of chunk(line, 200).slice(1)) expect(own(line, c)).toMatch(/^Été/);
  });
});

describe('overlap', () => {
  const paragraphs = Array.from({ length: 40 }, (_, i) => sentence(i));
  const content = paragraphs.join('\n\n') + '\n';

  it('repeats the last lines of the previous chunk before the chunk text', () => {
    const chunks = chunk(content, 600, 3);
    expect(chunks.length).toBeGreaterThan(3);
    for (const [i, c] of chunks.entries()) {
      expect(c.content.length).toBeLessThanOrEqual(600);
      if (i === 0) {
        expect(c.content).toBe(own(content, c));
        continue;
      }
      const text = own(content, c);
      expect(c.content.endsWith(text)).toBe(true);
      const context = c.content.slice(0, c.content.length - text.length);
      const previous = own(content, chunks[i - 1] as MarkdownChunk);
      const lastThree = previous
        .trimEnd()
        .split('\n')
        .filter((l) => l !== '')
        .slice(-3);
      expect(context.split('\n').filter((l) => l !== '')).toEqual(lastThree);
      expect(previous.endsWith(context) || previous.trimEnd().endsWith(context.trimEnd())).toBe(
        true,
      );
    }
  });

  it('adds nothing with overlapLines 0', () => {
    for (const c of chunk(content, 400, 0)) expect(c.content).toBe(own(content, c));
  });

  it('adds nothing at a heading: the section starts fresh', () => {
    const doc = Array.from(
      { length: 8 },
      (_, i) => `## S${i}\n\n${paragraphs.slice(0, 4).join('\n\n')}`,
    ).join('\n\n');
    const chunks = chunk(doc, 450, 3);
    for (const c of chunks) expect(c.content).toBe(own(doc, c));
  });

  it('never repeats table rows or code as overlap', () => {
    const doc = `${table(8)}\n\n${paragraphs.slice(0, 6).join('\n\n')}\n\n\`\`\`\ncode\n\`\`\`\n\n${paragraphs.slice(0, 6).join('\n\n')}\n`;
    for (let max = 120; max < 400; max += 11) {
      const chunks = chunk(doc, max, 3);
      expectTiling(doc, chunks);
      const rows = chunks.flatMap((c) =>
        c.content.split('\n').filter((l) => l.startsWith('| item')),
      );
      expect(rows.length).toBe(8);
      for (const c of chunks) {
        expect(endsInsideFence(c.content)).toBe(false);
        expect(tablesHaveHeaders(c.content)).toBe(true);
      }
    }
  });

  it('keeps overlap to a quarter of the chunk', () => {
    const doc = Array.from({ length: 20 }, (_, i) => `${sentence(i)} ${sentence(i + 1)}`).join(
      '\n',
    );
    for (const c of chunk(doc, 200, 3)) {
      expect(c.content.length - (c.endChar - c.startChar)).toBeLessThanOrEqual(50);
    }
  });
});

describe('offsets', () => {
  it('maps every chunk back to the original text, CRLF included', () => {
    const lf = `# T\n\n${table(40)}\n\n${Array.from({ length: 20 }, (_, i) => sentence(i)).join('\n\n')}\n`;
    const crlf = lf.replaceAll('\n', '\r\n');
    for (const doc of [lf, crlf]) {
      const chunks = chunk(doc, 300);
      expectTiling(doc, chunks);
      for (const c of chunks) expect(tablesHaveHeaders(c.content.replaceAll('\r', ''))).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over random Markdown

const WORDS = [
  'alpha',
  'beta',
  'Gamma',
  'delta',
  'Price',
  'item',
  'Shop',
  'lorem',
  'ipsum',
  'Zeta',
];
const wordsArb = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 })
  .map((w) => w.join(' '));
const sentenceArb = wordsArb.map((w) => `${w[0]?.toUpperCase()}${w.slice(1)}.`);
const lineArb = fc.array(sentenceArb, { minLength: 1, maxLength: 5 }).map((s) => s.join(' '));

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'table'; cols: number; rows: number; cells: string[] }
  | { kind: 'list'; items: { marker: string; text: string; more: string[]; nested: string[] }[] }
  | { kind: 'code'; marker: string; info: string; lines: string[] }
  | { kind: 'quote'; lines: string[] };

const blockArb: fc.Arbitrary<Block> = fc.oneof(
  fc.record({
    kind: fc.constant('heading' as const),
    level: fc.integer({ min: 1, max: 6 }),
    text: wordsArb,
  }),
  fc.record({
    kind: fc.constant('paragraph' as const),
    lines: fc.oneof(
      fc.array(lineArb, { minLength: 1, maxLength: 3 }),
      // a line longer than most chunk sizes
      fc.array(sentenceArb, { minLength: 30, maxLength: 120 }).map((s) => [s.join(' ')]),
    ),
  }),
  fc.record({
    kind: fc.constant('table' as const),
    cols: fc.integer({ min: 1, max: 4 }),
    rows: fc.integer({ min: 0, max: 40 }),
    cells: fc.array(fc.constantFrom(...WORDS), { minLength: 4, maxLength: 4 }),
  }),
  fc.record({
    kind: fc.constant('list' as const),
    items: fc.array(
      fc.record({
        marker: fc.constantFrom('-', '*', '+', '1.'),
        text: wordsArb,
        more: fc.array(wordsArb, { maxLength: 2 }),
        nested: fc.array(wordsArb, { maxLength: 2 }),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  }),
  fc.record({
    kind: fc.constant('code' as const),
    marker: fc.constantFrom('```', '~~~', '````'),
    info: fc.constantFrom('', 'js', 'python title="a b"'),
    lines: fc.array(
      fc.oneof(
        wordsArb,
        fc.constantFrom(
          '# not a heading',
          '| x | y |',
          '|---|---|',
          '- not a list',
          '',
          '    indented',
          'End. Next',
        ),
      ),
      { maxLength: 30 },
    ),
  }),
  fc.record({
    kind: fc.constant('quote' as const),
    lines: fc.array(wordsArb, { minLength: 1, maxLength: 3 }),
  }),
);

interface Doc {
  text: string;
  /** [start, end) of each top-level fenced code block, closing line included. */
  fences: [number, number][];
  /** Line starts of each table: header, delimiter, rows. */
  tables: number[][];
}

function render(blocks: Block[], joiners: boolean[]): Doc {
  let text = '';
  const fences: [number, number][] = [];
  const tables: number[][] = [];
  blocks.forEach((block, b) => {
    if (b > 0) text += joiners[b] && blocks[b - 1]?.kind === 'heading' ? '\n' : '\n\n';
    const lines: string[] = [];
    switch (block.kind) {
      case 'heading':
        lines.push(`${'#'.repeat(block.level)} ${block.text}`);
        break;
      case 'paragraph':
      case 'quote':
        lines.push(...block.lines.map((l) => (block.kind === 'quote' ? `> ${l}` : l)));
        break;
      case 'table': {
        const cols = Array.from({ length: block.cols }, (_, c) => c);
        lines.push(`| ${cols.map((c) => `h${c}`).join(' | ')} |`);
        lines.push(`| ${cols.map(() => '---').join(' | ')} |`);
        for (let r = 0; r < block.rows; r++) {
          lines.push(
            `| ${cols.map((c) => (c === 0 ? `r${b}-${r}` : block.cells[c])).join(' | ')} |`,
          );
        }
        break;
      }
      case 'list':
        for (const item of block.items) {
          lines.push(`${item.marker} ${item.text}`, ...item.more.map((m) => `  ${m}`));
          lines.push(...item.nested.map((m) => `  - ${m}`));
        }
        break;
      case 'code':
        lines.push(`${block.marker}${block.info}`, ...block.lines, block.marker);
        break;
    }
    const start = text.length;
    if (block.kind === 'table') {
      let at = start;
      tables.push(lines.map((l) => ((at += l.length + 1), at - l.length - 1)));
    }
    text += lines.join('\n');
    if (block.kind === 'code') fences.push([start, text.length + 1]);
  });
  return { text: `${text}\n`, fences, tables };
}

const docArb = fc
  .tuple(
    fc.array(blockArb, { minLength: 1, maxLength: 25 }),
    fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }),
  )
  .map(([blocks, joiners]) => render(blocks, joiners));

describe('properties', () => {
  it('tiles the input, respects the size, never cuts a fence, a row or a table header', () => {
    fc.assert(
      fc.property(
        docArb,
        fc.integer({ min: 150, max: 3000 }),
        fc.integer({ min: 0, max: 4 }),
        (doc, max, overlap) => {
          const chunks = chunkMarkdownByStructure(doc.text, {
            maxChunkSize: max,
            overlapLines: overlap,
          });
          expectTiling(doc.text, chunks);
          const cuts = chunks.slice(1).map((c) => c.startChar);
          for (const c of chunks) {
            expect(c.content.length).toBeLessThanOrEqual(max);
            expect(endsInsideFence(c.content)).toBe(false);
            expect(tablesHaveHeaders(c.content)).toBe(true);
          }
          // A code block that fits in a chunk (with room for the overlap) is never cut.
          for (const [start, end] of doc.fences) {
            if (end - start > max - Math.floor(max / 4)) continue;
            for (const cut of cuts) expect(cut <= start || cut >= end).toBe(true);
          }
          // Inside a table: cuts only at the start of the second data row or later.
          for (const starts of doc.tables) {
            const [start, end] = [starts[0] as number, (starts.at(-1) as number) + 1];
            for (const cut of cuts) {
              if (cut <= start || cut >= end) continue;
              expect(starts.indexOf(cut)).toBeGreaterThanOrEqual(3);
            }
          }
          // Each data row is read exactly once; a chunk's row range names the rows it holds.
          const seen = new Map<string, number>();
          for (const c of chunks) {
            const rows = codeLines(c.content)
              .filter((l) => !l.code && /^\| r\d+-\d+ /.test(l.line))
              .map((l) => l.line.slice(2, l.line.indexOf(' ', 2)));
            for (const r of rows) seen.set(r, (seen.get(r) ?? 0) + 1);
            const byTable = new Map<string, number[]>();
            for (const r of rows) {
              const [t, i] = r.slice(1).split('-');
              byTable.set(t as string, [...(byTable.get(t as string) ?? []), Number(i)]);
            }
            for (const [t, indexes] of byTable) {
              const total = doc.tables.length > 0 ? countRows(doc.text, t) : 0;
              if (indexes.length === total) continue; // whole table in this chunk
              const range = `(rows ${(indexes[0] as number) + 1}-${(indexes.at(-1) as number) + 1} of ${total})`;
              expect(c.structuralContext).toContain(range);
            }
          }
          for (const count of seen.values()) expect(count).toBe(1);
          expect(seen.size).toBe(doc.tables.reduce((n, t) => n + t.length - 2, 0));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays within the size and closes every fence with long lines, fences in list items and touching blocks', () => {
    const text = fc.constantFrom('alpha', 'Beta gamma.', 'Delta. Echo', 'x', 'long '.repeat(30));
    const block = fc.oneof(
      text,
      fc.tuple(fc.integer({ min: 1, max: 3 }), text).map(([l, t]) => `${'#'.repeat(l)} ${t}`),
      fc
        .tuple(fc.integer({ min: 0, max: 12 }), text)
        .map(([n, t]) =>
          [
            '| a | b |',
            '|---|---|',
            ...Array.from({ length: n }, (_, i) => `| ${t} ${i} | ${i} |`),
          ].join('\n'),
        ),
      fc
        .tuple(
          fc.constantFrom('-', '1.', '*'),
          text,
          fc.array(text, { maxLength: 8 }),
          fc.boolean(),
        )
        .map(
          ([marker, t, code, blank]) =>
            `${marker} ${t}\n${blank ? '\n' : ''}  \`\`\`js\n${code.map((c) => `  ${c}`).join('\n')}\n  \`\`\`\n  after code`,
        ),
      fc
        .tuple(fc.constantFrom('```', '~~~~'), fc.array(text, { maxLength: 20 }))
        .map(([marker, lines]) => `${marker}py\n${lines.join('\n')}\n${marker}`),
      fc.array(text, { minLength: 1, maxLength: 3 }).map((l) => l.map((x) => `> ${x}`).join('\n')),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(block, fc.constantFrom('\n', '\n\n')), { maxLength: 30 }),
        fc.integer({ min: 60, max: 1500 }),
        fc.integer({ min: 0, max: 4 }),
        (blocks, max, overlap) => {
          const doc = blocks.map(([b, joiner]) => b + joiner).join('');
          const chunks = chunkMarkdownByStructure(doc, {
            maxChunkSize: max,
            overlapLines: overlap,
          });
          expectTiling(doc, chunks);
          for (const c of chunks) {
            // Only a table row (or header + delimiter + first row) longer than a chunk may exceed it.
            if (c.content.length > max) expect(c.content).toMatch(/^\|.*\|$/m);
            expect(endsInsideFence(c.content)).toBe(false);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('terminates and tiles arbitrary text with small chunk sizes', () => {
    const charArb = fc.constantFrom(
      '#',
      '|',
      '-',
      '`',
      '~',
      ' ',
      '\n',
      '\n',
      'a',
      'B',
      '.',
      '*',
      '1',
      '\t',
      '=',
      '>',
      '\r',
      ':',
    );
    fc.assert(
      fc.property(
        fc.array(charArb, { maxLength: 400 }).map((c) => c.join('')),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 4 }),
        (text, max, overlap) => {
          expectTiling(
            text,
            chunkMarkdownByStructure(text, { maxChunkSize: max, overlapLines: overlap }),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});

function countRows(text: string, table: string): number {
  return text.split('\n').filter((l) => l.startsWith(`| r${table}-`)).length;
}
