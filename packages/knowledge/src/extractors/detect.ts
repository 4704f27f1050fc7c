import {
  officeFromExtension,
  officeFromMime,
  officeType,
  officeZipType,
  oleType,
} from './office-formats';
import {
  type DetectedType,
  type DocumentKind,
  type ExtractInput,
  UnsupportedFormatError,
} from './types';

const ascii = (bytes: Uint8Array, start: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(start, start + length));

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  signature.every((byte, index) => bytes[offset + index] === byte);

/** A ZIP holds a DOCX when its local file headers name the Word parts; else maybe another office file. */
function zipType(bytes: Uint8Array): DetectedType | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 65536)));
  if (head.includes('[Content_Types].xml') && head.includes('word/')) {
    return {
      kind: 'docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    };
  }
  return officeZipType(bytes);
}

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] as const;
const RTF = [0x7b, 0x5c, 0x72, 0x74, 0x66] as const; // {\rtf

function isoMediaType(bytes: Uint8Array): DetectedType | undefined {
  if (ascii(bytes, 4, 4) !== 'ftyp') return undefined;
  const brand = ascii(bytes, 8, 4);
  if (brand.startsWith('M4A') || brand.startsWith('M4B'))
    return { kind: 'audio', mimeType: 'audio/mp4' };
  if (brand === 'qt  ') return { kind: 'video', mimeType: 'video/quicktime' };
  return { kind: 'video', mimeType: 'video/mp4' };
}

function riffType(bytes: Uint8Array): DetectedType | undefined {
  if (ascii(bytes, 0, 4) !== 'RIFF') return undefined;
  const form = ascii(bytes, 8, 4);
  if (form === 'WEBP') return { kind: 'image', mimeType: 'image/webp' };
  if (form === 'WAVE') return { kind: 'audio', mimeType: 'audio/wav' };
  if (form === 'AVI ') return { kind: 'video', mimeType: 'video/x-msvideo' };
  return undefined;
}

const SIGNATURES: readonly { bytes: readonly number[]; type: DetectedType }[] = [
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], type: { kind: 'pdf', mimeType: 'application/pdf' } },
  {
    bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    type: { kind: 'image', mimeType: 'image/png' },
  },
  { bytes: [0xff, 0xd8, 0xff], type: { kind: 'image', mimeType: 'image/jpeg' } },
  { bytes: [0x47, 0x49, 0x46, 0x38], type: { kind: 'image', mimeType: 'image/gif' } },
  { bytes: [0x49, 0x44, 0x33], type: { kind: 'audio', mimeType: 'audio/mpeg' } },
  { bytes: [0x4f, 0x67, 0x67, 0x53], type: { kind: 'audio', mimeType: 'audio/ogg' } },
  { bytes: [0x66, 0x4c, 0x61, 0x43], type: { kind: 'audio', mimeType: 'audio/flac' } },
  { bytes: [0x1a, 0x45, 0xdf, 0xa3], type: { kind: 'video', mimeType: 'video/webm' } },
];

/**
 * Binary containers (and RTF) recognised from their first bytes; undefined for text and unknown
 * bytes. The declared type only breaks a tie inside an OLE2 file that holds several documents.
 */
export function detectFromBytes(
  bytes: Uint8Array,
  declared?: DetectedType,
): DetectedType | undefined {
  for (const signature of SIGNATURES) if (startsWith(bytes, signature.bytes)) return signature.type;
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    const zip = zipType(bytes);
    if (zip) return zip;
    throw new UnsupportedFormatError('zip archive (not a Word, Excel, PowerPoint or ODF document)');
  }
  if (startsWith(bytes, OLE2)) return oleType(bytes, declared);
  if (startsWith(bytes, RTF)) return officeType('rtf');
  // An MPEG audio frame sync (11 set bits); 0xFFFE is left to the UTF-16 byte order mark.
  const second = bytes[1] ?? 0;
  if (bytes[0] === 0xff && (second & 0xe0) === 0xe0 && second !== 0xff && second !== 0xfe) {
    return { kind: 'audio', mimeType: 'audio/mpeg' };
  }
  return isoMediaType(bytes) ?? riffType(bytes);
}

const EXTENSIONS: Record<string, DetectedType> = {
  md: { kind: 'markdown', mimeType: 'text/markdown' },
  markdown: { kind: 'markdown', mimeType: 'text/markdown' },
  txt: { kind: 'text', mimeType: 'text/plain' },
  text: { kind: 'text', mimeType: 'text/plain' },
  json: { kind: 'json', mimeType: 'application/json' },
  csv: { kind: 'csv', mimeType: 'text/csv' },
  xml: { kind: 'xml', mimeType: 'application/xml' },
  yaml: { kind: 'yaml', mimeType: 'application/yaml' },
  yml: { kind: 'yaml', mimeType: 'application/yaml' },
  html: { kind: 'html', mimeType: 'text/html' },
  htm: { kind: 'html', mimeType: 'text/html' },
};

const MIME_KINDS: Record<string, DocumentKind> = {
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
  'application/json': 'json',
  'text/json': 'json',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'text/x-yaml': 'yaml',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

function fromMime(mimeType: string | undefined): DetectedType | undefined {
  const essence = mimeType?.split(';')[0]?.trim().toLowerCase();
  if (!essence) return undefined;
  const kind = MIME_KINDS[essence];
  if (kind) return { kind, mimeType: essence };
  const office = officeFromMime(essence);
  if (office) return office;
  if (essence.endsWith('+json')) return { kind: 'json', mimeType: essence };
  if (essence.endsWith('+xml')) return { kind: 'xml', mimeType: essence };
  return undefined;
}

function fromFileName(fileName: string | undefined): DetectedType | undefined {
  const extension = fileName?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  if (!extension) return undefined;
  return EXTENSIONS[extension] ?? officeFromExtension(extension);
}

/** Looks like text when the head decodes without NUL bytes (UTF-16 is caught by its BOM). */
function looksLikeText(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return true;
  return !bytes.subarray(0, 8192).includes(0);
}

function sniffText(bytes: Uint8Array): DetectedType {
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^<!doctype html|^<html[\s>]/i.test(head)) return { kind: 'html', mimeType: 'text/html' };
  if (head.startsWith('<?xml')) return { kind: 'xml', mimeType: 'application/xml' };
  return { kind: 'text', mimeType: 'text/plain' };
}

/** Kinds a declaration cannot impose on bytes that read as text. */
const BINARY_KINDS: ReadonlySet<DocumentKind> = new Set(['pdf', 'docx', 'office']);

/**
 * Bytes win over what the caller declares, because browsers and uploads often send
 * `application/octet-stream` or a wrong extension; for text the declared MIME type, then
 * the file name, decide, since text formats have no magic numbers. Binary bytes without a
 * known signature pass only when declared as an office format (older Word and Excel files,
 * an OLE2 file whose streams were not recognised): LibreOffice reads more than we sniff.
 */
export function detectType(bytes: Uint8Array, input: ExtractInput = {}): DetectedType {
  const declared = fromMime(input.mimeType) ?? fromFileName(input.fileName);
  const binary = detectFromBytes(bytes, declared);
  if (binary) return binary;
  if (!looksLikeText(bytes)) {
    if (declared?.kind === 'office') return declared;
    const label = input.mimeType ?? input.fileName ?? 'unknown binary';
    throw new UnsupportedFormatError(label);
  }
  if (declared && !BINARY_KINDS.has(declared.kind)) return declared;
  return sniffText(bytes);
}
