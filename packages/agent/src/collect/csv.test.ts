import { describe, expect, it } from 'vitest';
import { collectedItemsToCsv, csvColumns, type CsvItem } from './csv';

const item = (seq: number, data: Record<string, unknown>, type = 'job'): CsvItem => ({
  seq,
  type,
  sourceUrl: `http://127.0.0.1/jobs/?page=${seq}`,
  data,
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
