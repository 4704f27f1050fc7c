import { describe, expect, it } from 'vitest';
import { csvField, csvTable } from './csv';

describe('csvField', () => {
  it('quotes fields with quotes, commas, line breaks or edge spaces, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line1\nline2')).toBe('"line1\nline2"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField(' padded')).toBe('" padded"');
  });

  it('writes scalars plainly, nested values as JSON and null/undefined as empty', () => {
    expect(csvField(12.5)).toBe('12.5');
    expect(csvField(false)).toBe('false');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField({ min: 1, max: 2 })).toBe('"{""min"":1,""max"":2}"');
    expect(csvField(['a', 'b'])).toBe('"[""a"",""b""]"');
  });

  it('defuses formulas from page content but leaves numbers and phone numbers alone', () => {
    expect(csvField('=HYPERLINK("http://evil.example","x")')).toBe(
      '"\'=HYPERLINK(""http://evil.example"",""x"")"',
    );
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField('+1 (555) 010-2000')).toBe('+1 (555) 010-2000');
  });
});

describe('csvTable', () => {
  it('writes the header and one CRLF-terminated line per row, every cell as csvField', () => {
    expect(
      csvTable(
        ['name', 'note'],
        [
          ['a,b', '=1+1'],
          [null, { x: 1 }],
        ],
      ),
    ).toBe(['name,note', '"a,b",\'=1+1', ',"{""x"":1}"', ''].join('\r\n'));
  });

  it('is just the header for no rows', () => {
    expect(csvTable(['a'], [])).toBe('a\r\n');
  });
});
