import { describe, expect, it } from 'vitest';
import { detectType } from './detect';
import { UnsupportedFormatError } from './types';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
const text = (value: string): Uint8Array => new TextEncoder().encode(value);

describe('detectType', () => {
  it('recognises binary containers by their magic numbers, whatever is declared', () => {
    const octet = { mimeType: 'application/octet-stream', fileName: 'upload.bin' };
    expect(detectType(text('%PDF-1.7\n'), octet)).toEqual({
      kind: 'pdf',
      mimeType: 'application/pdf',
    });
    expect(
      detectType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), octet).mimeType,
    ).toBe('image/png');
    expect(detectType(bytes(0xff, 0xd8, 0xff, 0xe0), octet).mimeType).toBe('image/jpeg');
    expect(detectType(text('GIF89a'), octet).mimeType).toBe('image/gif');
    expect(detectType(text('RIFF\0\0\0\0WEBPVP8 '), octet)).toEqual({
      kind: 'image',
      mimeType: 'image/webp',
    });
    expect(detectType(text('RIFF\0\0\0\0WAVEfmt '), octet).kind).toBe('audio');
    expect(detectType(text('ID3\u0004\0\0'), octet).mimeType).toBe('audio/mpeg');
    expect(detectType(text('OggS\0'), octet).kind).toBe('audio');
    expect(detectType(text('\0\0\0\u0018ftypisom'), octet)).toEqual({
      kind: 'video',
      mimeType: 'video/mp4',
    });
    expect(detectType(text('\0\0\0\u0018ftypM4A '), octet).kind).toBe('audio');
    expect(detectType(bytes(0x1a, 0x45, 0xdf, 0xa3, 0), octet).kind).toBe('video');
  });

  it('tells a Word document from another ZIP by its content types part', () => {
    const zip = (names: string) => new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...text(names)]);
    expect(detectType(zip('[Content_Types].xml ... word/document.xml')).kind).toBe('docx');
    expect(() => detectType(zip('data/readme.txt'))).toThrow(UnsupportedFormatError);
    expect(() => detectType(zip('data/readme.txt'))).toThrow(/zip archive/);
  });

  it('uses the declared MIME type, then the file name, for text formats', () => {
    const body = text('a,b\n1,2\n');
    expect(detectType(body, { mimeType: 'text/csv; charset=utf-8' })).toEqual({
      kind: 'csv',
      mimeType: 'text/csv',
    });
    expect(detectType(body, { fileName: 'rows.CSV' }).kind).toBe('csv');
    expect(detectType(body, { mimeType: 'application/ld+json' }).kind).toBe('json');
    expect(detectType(body, { fileName: 'conf.yml' }).kind).toBe('yaml');
    expect(detectType(body, { fileName: 'notes.md' }).kind).toBe('markdown');
    expect(detectType(body, { fileName: 'page.html' }).kind).toBe('html');
  });

  it('sniffs undeclared text for HTML and XML, else plain text', () => {
    expect(detectType(text('<!DOCTYPE html><html></html>')).kind).toBe('html');
    expect(detectType(text('\uFEFF<?xml version="1.0"?><a/>')).kind).toBe('xml');
    expect(detectType(text('just words')).kind).toBe('text');
    expect(detectType(bytes(0xff, 0xfe, 0x68, 0)).kind).toBe('text');
  });

  it('names the type in the error for unknown binary data', () => {
    const error = (() => {
      try {
        detectType(bytes(0, 1, 2, 3), { mimeType: 'application/x-sqlite3' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedFormatError);
    expect((error as UnsupportedFormatError).format).toBe('application/x-sqlite3');
    expect((error as Error).message).toContain('application/x-sqlite3');
  });
});

/** A ZIP with stored (uncompressed) entries, enough for detection: local headers then a central directory. */
function zip(entries: [name: string, body: string][]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, body] of entries) {
    const nameBytes = Buffer.from(name, 'latin1');
    const data = Buffer.from(body, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

const OOXML_TYPES = '<?xml version="1.0"?><Types/>';
const OLE2_HEADER = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** An OLE2 compound file header followed by directory entry names (UTF-16LE, NUL-ended). */
const ole2 = (...streams: string[]): Uint8Array =>
  new Uint8Array([
    ...OLE2_HEADER,
    ...new Uint8Array(504),
    ...streams.flatMap((name) => [...Buffer.from(`${name}\0`, 'utf16le'), 0, 0]),
  ]);

const office = (mimeType: string) => ({ kind: 'office', mimeType });
const octet = { mimeType: 'application/octet-stream', fileName: 'upload.bin' };

describe('detectType: office formats for Gotenberg', () => {
  it('tells Word, Excel and PowerPoint 97–2003 apart inside an OLE2 compound file', () => {
    expect(detectType(ole2('Root Entry', 'WordDocument', '1Table'), octet)).toEqual(
      office('application/msword'),
    );
    expect(detectType(ole2('Root Entry', 'Workbook'), octet)).toEqual(
      office('application/vnd.ms-excel'),
    );
    expect(detectType(ole2('Root Entry', 'Book'), octet).mimeType).toBe('application/vnd.ms-excel');
    expect(detectType(ole2('Root Entry', 'PowerPoint Document'), octet)).toEqual(
      office('application/vnd.ms-powerpoint'),
    );
  });

  it('lets the declared type pick among documents an OLE2 file holds, else falls back to it', () => {
    const workbookWithWord = ole2('Root Entry', 'Workbook', 'WordDocument');
    expect(detectType(workbookWithWord).mimeType).toBe('application/msword');
    expect(detectType(workbookWithWord, { fileName: 'budget.xls' }).mimeType).toBe(
      'application/vnd.ms-excel',
    );
    expect(detectType(ole2('Root Entry'), { fileName: 'old.DOC' })).toEqual(
      office('application/msword'),
    );
    expect(() => detectType(ole2('Root Entry', 'MsiTables'))).toThrow(UnsupportedFormatError);
  });

  it('recognises RTF by {\\rtf whatever the declaration says', () => {
    expect(detectType(text('{\\rtf1\\ansi Hello}'), { mimeType: 'text/plain' })).toEqual(
      office('application/rtf'),
    );
  });

  it('tells PPTX and XLSX from DOCX by their part folders', () => {
    const pptx = zip([
      ['[Content_Types].xml', OOXML_TYPES],
      ['_rels/.rels', '<Relationships/>'],
      ['ppt/presentation.xml', '<p:presentation/>'],
    ]);
    const xlsx = zip([
      ['[Content_Types].xml', OOXML_TYPES],
      ['xl/workbook.xml', '<workbook/>'],
    ]);
    const docx = zip([
      ['[Content_Types].xml', OOXML_TYPES],
      ['word/document.xml', '<w:document/>'],
    ]);
    expect(detectType(pptx, octet)).toEqual(
      office('application/vnd.openxmlformats-officedocument.presentationml.presentation'),
    );
    expect(detectType(xlsx, octet)).toEqual(
      office('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
    );
    expect(detectType(docx, octet).kind).toBe('docx');
  });

  it('reads an ODF package type from its leading mimetype entry', () => {
    const odf = (mimeType: string) =>
      zip([
        ['mimetype', mimeType],
        ['content.xml', '<office:document-content/>'],
        ['META-INF/manifest.xml', '<manifest:manifest/>'],
      ]);
    expect(detectType(odf('application/vnd.oasis.opendocument.text'), octet)).toEqual(
      office('application/vnd.oasis.opendocument.text'),
    );
    expect(detectType(odf('application/vnd.oasis.opendocument.spreadsheet')).mimeType).toBe(
      'application/vnd.oasis.opendocument.spreadsheet',
    );
    expect(detectType(odf('application/vnd.oasis.opendocument.presentation')).mimeType).toBe(
      'application/vnd.oasis.opendocument.presentation',
    );
    expect(() => detectType(odf('application/epub+zip'))).toThrow(/zip archive/);
  });

  it('falls back to the declared MIME type, then the extension, for binary office files', () => {
    const legacy = bytes(0x09, 0x08, 0x10, 0, 0, 6, 5, 0); // a BIFF record, no OLE2 wrapper
    expect(detectType(legacy, { mimeType: 'application/vnd.ms-excel' })).toEqual(
      office('application/vnd.ms-excel'),
    );
    expect(detectType(legacy, { fileName: 'slides.pptx' }).mimeType).toBe(
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    );
    expect(detectType(legacy, { fileName: 'notes.odt' }).mimeType).toBe(
      'application/vnd.oasis.opendocument.text',
    );
    expect(detectType(legacy, { mimeType: 'text/rtf' }).mimeType).toBe('application/rtf');
    // Text bytes with an office name are not trusted: they are sniffed as text.
    expect(detectType(text('a,b\n1,2\n'), { fileName: 'export.xls' }).kind).toBe('text');
  });
});
