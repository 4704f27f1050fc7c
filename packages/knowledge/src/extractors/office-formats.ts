import type { DetectedType } from './types';

/**
 * Office formats with no JS parser here, converted to PDF by Gotenberg (LibreOffice). DOCX is
 * not listed: mammoth reads it. The extension is what LibreOffice (through Gotenberg) uses to
 * pick its import filter, so every MIME type maps to the one extension sent with the file.
 */
export const OFFICE_FORMATS = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  rtf: 'application/rtf',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  odg: 'application/vnd.oasis.opendocument.graphics',
  ott: 'application/vnd.oasis.opendocument.text-template',
  ots: 'application/vnd.oasis.opendocument.spreadsheet-template',
  otp: 'application/vnd.oasis.opendocument.presentation-template',
  otg: 'application/vnd.oasis.opendocument.graphics-template',
} as const;

export type OfficeExtension = keyof typeof OFFICE_FORMATS;

/** Other names the same formats go by (RTF's text/ variant, the Excel 2007 macro workbook…). */
const MIME_ALIASES: Record<string, OfficeExtension> = {
  'text/rtf': 'rtf',
  'application/x-rtf': 'rtf',
  'application/vnd.ms-word': 'doc',
  'application/x-msexcel': 'xls',
  'application/x-excel': 'xls',
  'application/mspowerpoint': 'ppt',
};

const BY_MIME: Record<string, OfficeExtension> = {
  ...(Object.fromEntries(
    Object.entries(OFFICE_FORMATS).map(([extension, mime]) => [mime, extension as OfficeExtension]),
  ) as Record<string, OfficeExtension>),
  ...MIME_ALIASES,
};

export const officeType = (extension: OfficeExtension): DetectedType => ({
  kind: 'office',
  mimeType: OFFICE_FORMATS[extension],
});

export function officeFromMime(essence: string): DetectedType | undefined {
  const extension = BY_MIME[essence];
  return extension ? officeType(extension) : undefined;
}

export function officeFromExtension(extension: string): DetectedType | undefined {
  return Object.hasOwn(OFFICE_FORMATS, extension)
    ? officeType(extension as OfficeExtension)
    : undefined;
}

/** The extension Gotenberg should see for a detected office MIME type. */
export const officeExtension = (mimeType: string): OfficeExtension | undefined => BY_MIME[mimeType];

const ascii = (bytes: Uint8Array, start: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(start, start + length));

const u16 = (bytes: Uint8Array, offset: number): number =>
  (bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8);

const ODF_PREFIX = 'application/vnd.oasis.opendocument.';

/**
 * ODF packages start with an uncompressed `mimetype` entry (ODF 1.2 part 3, 3.3) holding the
 * exact MIME type, so the first local file header tells which ODF document this is.
 */
function odfType(bytes: Uint8Array): DetectedType | undefined {
  const nameLength = u16(bytes, 26);
  if (u16(bytes, 8) !== 0 || ascii(bytes, 30, nameLength) !== 'mimetype') return undefined;
  const start = 30 + nameLength + u16(bytes, 28);
  // With a data descriptor the header's size is 0: the value then ends where the next entry starts.
  const size = u16(bytes, 18) || 100;
  const mime = ascii(bytes, start, Math.min(size, 100)).split('PK')[0]?.trim() ?? '';
  if (!mime.startsWith(ODF_PREFIX)) return undefined;
  return officeFromMime(mime) ?? { kind: 'office', mimeType: mime };
}

/** Names of the ZIP's entries: local headers at the start, the central directory at the end. */
function zipNames(bytes: Uint8Array): string {
  const decoder = new TextDecoder('latin1');
  const window = 65536;
  const head = decoder.decode(bytes.subarray(0, Math.min(bytes.length, window)));
  if (bytes.length <= window) return head;
  return head + decoder.decode(bytes.subarray(bytes.length - window));
}

/** An office ZIP other than DOCX: ODF by its mimetype entry, OOXML by its part folders. */
export function officeZipType(
  bytes: Uint8Array,
  names = zipNames(bytes),
): DetectedType | undefined {
  const odf = odfType(bytes);
  if (odf) return odf;
  if (!names.includes('[Content_Types].xml')) return undefined;
  if (/(?:^|[^A-Za-z0-9_])ppt\//.test(names)) return officeType('pptx');
  if (/(?:^|[^A-Za-z0-9_])xl\//.test(names)) return officeType('xlsx');
  return undefined;
}

/** Stream names of the main document in an OLE2 compound file (stored as UTF-16LE, NUL-ended). */
const OLE_STREAMS: readonly [OfficeExtension, string][] = [
  ['doc', 'WordDocument'],
  ['ppt', 'PowerPoint Document'],
  ['xls', 'Workbook'],
  ['xls', 'Book'],
];

/**
 * The OLE2 compound file (`D0 CF 11 E0 A1 B1 1A E1`) holds Word 97–2003, Excel and PowerPoint
 * documents alike; the directory names the main stream. When more than one is present (a Word
 * document embedded in a workbook), the declared type wins if it is one of them.
 */
export function oleType(bytes: Uint8Array, declared?: DetectedType): DetectedType | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = OLE_STREAMS.filter(([, name]) =>
    buffer.includes(Buffer.from(`${name}\0`, 'utf16le')),
  ).map(([extension]) => officeType(extension));
  return found.find((type) => type.mimeType === declared?.mimeType) ?? found[0];
}
