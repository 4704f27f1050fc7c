// Word files built with the ZIP writer: the three parts a reader needs, then the hostile part.
// [Content_Types].xml comes first so type detection (which looks for it and `word/` in the first
// 64 KB) sees a DOCX, as it would with a real one.
import { zip, type ZipEntry } from './zip';
import { seededWords } from './words';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;

const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

const DOC_OPEN =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
const DOC_CLOSE = '</w:body></w:document>';

const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const docx = (body: ZipEntry['data'], extra: ZipEntry[] = [], lie?: ZipEntry['declare']) =>
  zip([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: '_rels/.rels', data: RELS },
    ...extra,
    { name: 'word/document.xml', data: body, ...(lie ? { declare: lie } : {}) },
  ]);

/** document.xml as a stream: the opening, `count` copies of `chunk`, the closing. */
function documentXml(chunk: string, count: number): () => Iterable<Uint8Array> {
  const open = Buffer.from(DOC_OPEN);
  const body = Buffer.from(chunk);
  const close = Buffer.from(DOC_CLOSE);
  return function* () {
    yield open;
    for (let i = 0; i < count; i++) yield body;
    yield close;
  };
}

/** Whole copies of `unit` making about 1 MB. */
const megabyteOf = (unit: string) => unit.repeat(Math.ceil((1024 * 1024) / unit.length));

/** A small, valid DOCX (warm-up, and the body of the zip-slip archive). */
export const smallDocx = () =>
  docx(DOC_OPEN + paragraph('INVOICE') + paragraph('Total: 12.50') + DOC_CLOSE);

/**
 * Paragraphs of varied prose unpacking to `mb` MB of XML: compresses about 6× like real text,
 * so it passes the ZIP budgets and is work to parse (61 MB took 148 s).
 */
export function proseDocx(mb: number): Promise<Buffer> {
  const words = seededWords(27);
  // 1 MB of distinct paragraphs, repeated: the deflate window (32 KB) never sees the repeat.
  let chunk = '';
  while (chunk.length < 1024 * 1024) chunk += paragraph(words(12).join(' '));
  return docx(documentXml(chunk, mb));
}

/** One paragraph repeated until document.xml unpacks to `mb` MB (~400× smaller packed). */
export function bombDocx(mb: number): Promise<Buffer> {
  return docx(documentXml(megabyteOf(paragraph('lol '.repeat(250))), mb));
}

/** A bomb whose headers say document.xml is 1 KB: budgets must count what inflates. */
export function lyingDocx(mb: number): Promise<Buffer> {
  return docx(documentXml(megabyteOf(paragraph('lie '.repeat(250))), mb), [], {
    uncompressedSize: 1024,
    crc: 0x12345678,
  });
}

/** A valid DOCX that also carries entries named to climb out of an extraction folder. */
export function zipSlipDocx(): Promise<Buffer> {
  return docx(DOC_OPEN + paragraph('MEMO') + paragraph('Subject: zip slip') + DOC_CLOSE, [
    { name: '../../evil.xml', data: '<evil>written outside</evil>' },
    { name: 'word/../../../evil.xml', data: '<evil>written outside</evil>' },
    { name: '/tmp/evil.xml', data: '<evil>absolute</evil>' },
  ]);
}
