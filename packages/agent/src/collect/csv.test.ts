import { describe, expect, it } from 'vitest';
import { collectedItemsToCsv, csvColumns, csvField, type CsvItem } from './csv';

const item = (seq: number, data: Record<string, unknown>, type = 'job'): CsvItem => ({
  seq,
  type,
  sourceUrl: `http://127.0.0.1/jobs/?page=${seq}`,
  data,
});

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

describe('collectedItemsToCsv', () => {
  it('has the bookkeeping columns, then the union of data keys in first-seen order', () => {
    const items = [
      item(1, { title: 'Engineer', company: 'Acme' }),
      item(2, { title: 'Designer', salary: '$120k', company: 'Globex' }),
      item(3, { sku: 'S-1' }, 'product'),
    ];
    expect(csvColumns(items)).toStrictEqual(['title', 'company', 'salary', 'sku']);
    expect(collectedItemsToCsv(items)).toBe(
      [
        '_seq,_type,_sourceUrl,title,company,salary,sku',
        '1,job,http://127.0.0.1/jobs/?page=1,Engineer,Acme,,',
        '2,job,http://127.0.0.1/jobs/?page=2,Designer,Globex,$120k,',
        '3,product,http://127.0.0.1/jobs/?page=3,,,,S-1',
        '',
      ].join('\r\n'),
    );
  });

  it('is just the header for no items', () => {
    expect(collectedItemsToCsv([])).toBe('_seq,_type,_sourceUrl\r\n');
  });
});
