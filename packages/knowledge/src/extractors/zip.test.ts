import { deflateRawSync } from 'node:zlib';
import { DEFAULT_INPUT_LIMITS, InputTooComplexError } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { ParseError } from './errors';
import { extractDocument } from './extract';
import {
  documentXml,
  docxBomb,
  docxPackage,
  rawZip,
  refusal,
  repeatedDeflate,
  storedEntry,
} from './hostile-fixtures';
import { gotenbergHandler } from './office';
import { InflateBudget } from './zip';

const MB = 1024 * 1024;

describe('DOCX: the archive is read within ZIP_MAX_UNCOMPRESSED_MB and ZIP_MAX_RATIO', () => {
  it('refuses a 1 MB file that unpacks to 1 GiB, before inflating it', async () => {
    const bomb = docxBomb(1024, MB);
    expect(bomb.length).toBeLessThan(1.1 * MB);
    const error = await refusal(extractDocument(bomb, { fileName: 'report.docx' }));
    expect(error).toBeInstanceOf(InputTooComplexError);
    expect((error as InputTooComplexError).limit).toBe('zipMaxUncompressedMb');
    expect(error.message).toBe(
      'The file declares it unpacks to 1,024 MB; the limit is 100 MB (ZIP_MAX_UNCOMPRESSED_MB).',
    );
  });

  it('refuses well-formed XML that unpacks to hundreds of times the file size', async () => {
    // About 100 KB unpacking to 61 MB of paragraphs, like the 249 KB file that took 148 s.
    const bomb = docxBomb(1_000, 61_000);
    const error = await refusal(extractDocument(bomb, { fileName: 'report.docx' }));
    expect(error).toBeInstanceOf(InputTooComplexError);
    expect((error as InputTooComplexError).limit).toBe('zipMaxRatio');
    expect(error.message).toMatch(/its own size; the limit is 100× \(ZIP_MAX_RATIO\)\.$/);
  });

  it('stops at the configured size as well', async () => {
    const error = await refusal(
      extractDocument(docxBomb(100, 30_000), {
        fileName: 'report.docx',
        limits: { ...DEFAULT_INPUT_LIMITS, zipMaxUncompressedMb: 1, zipMaxRatio: 1_000_000 },
      }),
    );
    expect((error as InputTooComplexError).limit).toBe('zipMaxUncompressedMb');
    expect(error.message).toMatch(/the limit is 1 MB \(ZIP_MAX_UNCOMPRESSED_MB\)/);
  });

  it('refuses an entry that inflates past the size it declares, without inflating it all', async () => {
    // Declares 4 KB; the deflate stream holds 1 GiB.
    const liar = docxBomb(1024, MB, 4_000);
    const error = await refusal(extractDocument(liar, { fileName: 'report.docx' }));
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe(
      'Could not parse DOCX: an entry unpacks to a size other than the one it declares.',
    );
  });

  it.each([
    ['../../evil.xml', 'climbs out with ..'],
    ['word/../../evil.xml', 'climbs out from inside'],
    ['/etc/cron.d/evil', 'is absolute'],
    ['C:/Windows/evil.xml', 'names a drive'],
  ])('refuses an entry named %s (%s) as a malformed file', async (name) => {
    const archive = rawZip([
      ...docxPackage(),
      storedEntry('word/document.xml', documentXml('<w:p><w:r><w:t>Hello</w:t></w:r></w:p>')),
      storedEntry(name, '<x/>'),
    ]);
    const error = await refusal(extractDocument(archive, { fileName: 'report.docx' }));
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toBe(
      'Could not parse DOCX: the archive has an entry whose name points outside it (an absolute path or "..").',
    );
    expect(error.message).not.toContain('evil');
  });

  it('reads a Word document built field by field, so the refusals above are the budgets', async () => {
    const archive = rawZip([
      ...docxPackage(),
      storedEntry('word/document.xml', documentXml('<w:p><w:r><w:t>Hello</w:t></w:r></w:p>')),
    ]);
    const result = await extractDocument(archive, { fileName: 'hello.docx' });
    expect(result.markdown).toBe('Hello');
  });

  it('says a damaged archive is damaged, in plain words', async () => {
    const archive = docxBomb(3, 100);
    const cut = archive.slice(0, archive.length - 30);
    const error = await refusal(extractDocument(cut, { fileName: 'report.docx' }));
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toMatch(/^Could not parse DOCX: /);
  });
});

describe('InflateBudget: the count of bytes actually inflated', () => {
  it('stops at the size budget', () => {
    const budget = new InflateBudget({ ...DEFAULT_INPUT_LIMITS, zipMaxRatio: 1e9 }, 1_000);
    budget.add(60 * MB);
    expect(() => budget.add(41 * MB)).toThrow(
      'The file unpacks to at least 101 MB; the limit is 100 MB (ZIP_MAX_UNCOMPRESSED_MB).',
    );
  });

  it('stops at the ratio budget', () => {
    const budget = new InflateBudget(DEFAULT_INPUT_LIMITS, 10_000);
    budget.add(1_000_000);
    expect(() => budget.add(1)).toThrow(
      'The file unpacks to at least 100× its own size; the limit is 100× (ZIP_MAX_RATIO).',
    );
  });
});

describe('office ZIPs (XLSX, PPTX, ODF) meet the same budgets before Gotenberg sees them', () => {
  it('refuses a workbook bomb without uploading it', async () => {
    const stored = repeatedDeflate(new Uint8Array(0), new Uint8Array(MB), 1024, new Uint8Array(0));
    const workbook = rawZip([
      storedEntry('[Content_Types].xml', '<Types/>'),
      { name: 'xl/workbook.xml', stored, method: 8, declaredSize: 1024 * MB },
    ]);
    let uploads = 0;
    const office = gotenbergHandler({
      url: 'http://gotenberg.test',
      fetch: () => {
        uploads += 1;
        return Promise.reject(new Error('not reached'));
      },
    });
    const error = await refusal(
      extractDocument(workbook, { fileName: 'book.xlsx', handlers: { office } }),
    );
    expect((error as InputTooComplexError).limit).toBe('zipMaxUncompressedMb');
    expect(uploads).toBe(0);
  });
});

describe('DOCX: its XML within DOCX_MAX_XML_MB', () => {
  it('refuses 6 MB of document XML at 6× compression, within the ZIP budgets, before mammoth', async () => {
    // Varied prose compresses about 6×: within ZIP_MAX_RATIO, yet mammoth would need ~450 MB.
    const words = ['ledger', 'quarter', 'margin', 'invoice', 'supplier', 'freight', 'audit'];
    const paragraphs = Array.from(
      { length: 30_000 },
      (_, i) =>
        `<w:p><w:r><w:t>${Array.from({ length: 24 }, (_, j) => `${words[(i * 7 + j * 3) % words.length]}${(i * 31 + j) % 997}`).join(' ')}</w:t></w:r></w:p>`,
    ).join('');
    const xml = Buffer.from(documentXml(paragraphs));
    expect(xml.length).toBeGreaterThan(5.5 * MB);
    const docx = rawZip([
      ...docxPackage(),
      {
        name: 'word/document.xml',
        stored: deflateRawSync(xml),
        method: 8,
        declaredSize: xml.length,
      },
    ]);
    expect(xml.length / docx.length).toBeLessThan(DEFAULT_INPUT_LIMITS.zipMaxRatio);
    const error = await refusal(extractDocument(docx, { fileName: 'report.docx' }));
    expect(error).toBeInstanceOf(InputTooComplexError);
    expect(error.message).toMatch(
      /^The Word document's text and markup come to [\d.]+ MB; the limit is 5 MB \(DOCX_MAX_XML_MB\)\.$/,
    );
  });
});
