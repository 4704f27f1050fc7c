export interface DecodedText {
  text: string;
  warnings: string[];
}

const hasPrefix = (bytes: Uint8Array, prefix: readonly number[]): boolean =>
  prefix.every((byte, index) => bytes[index] === byte);

/** Line endings to LF, so chunk offsets and hashes do not depend on the author's OS. */
export const normaliseNewlines = (text: string): string => text.replace(/\r\n?/g, '\n');

// 0x80–0x9F, where windows-1252 differs from Latin-1 (undefined bytes keep their C1 code point).
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Node 20's TextDecoder treats the windows-1252 label as Latin-1, so the table is ours. The code
 * units are collected in an array and decoded once: appending a character at a time built a
 * rope of millions of strings (a 25 MB file took 9.7 s and 900 MB).
 */
function decodeWindows1252(bytes: Uint8Array): string {
  const units = new Uint16Array(bytes.length);
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index] ?? 0;
    units[index] = byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH.charCodeAt(byte - 0x80) : byte;
  }
  return new TextDecoder('utf-16le').decode(units);
}

/**
 * A byte order mark decides; without one we expect UTF-8 and, when the bytes are not valid
 * UTF-8, read them as windows-1252 because that is what older Windows tools write.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (hasPrefix(bytes, [0xef, 0xbb, 0xbf])) {
    return {
      text: normaliseNewlines(new TextDecoder('utf-8').decode(bytes.subarray(3))),
      warnings: [],
    };
  }
  if (hasPrefix(bytes, [0xff, 0xfe])) {
    return {
      text: normaliseNewlines(new TextDecoder('utf-16le').decode(bytes.subarray(2))),
      warnings: [],
    };
  }
  if (hasPrefix(bytes, [0xfe, 0xff])) {
    return {
      text: normaliseNewlines(new TextDecoder('utf-16be').decode(bytes.subarray(2))),
      warnings: [],
    };
  }
  try {
    return {
      text: normaliseNewlines(new TextDecoder('utf-8', { fatal: true }).decode(bytes)),
      warnings: [],
    };
  } catch {
    return {
      text: normaliseNewlines(decodeWindows1252(bytes)),
      warnings: ['Not valid UTF-8: read as windows-1252.'],
    };
  }
}

/** Where a line ends once its trailing spaces and tabs are dropped. */
function endWithoutSpaces(line: string): number {
  let end = line.length;
  while (end > 0) {
    const code = line.charCodeAt(end - 1);
    if (code !== 0x20 && code !== 0x09) break;
    end -= 1;
  }
  return end;
}

/**
 * Drops spaces and tabs at the end of every line. A loop rather than `/[ \t]+$/` or
 * `/[ \t]+\n/g`: on a long run of spaces that a newline does not end, those regexes backtrack
 * from every space (quadratic: 50,000 spaces took 2.6 s, a 10 MB file would never finish).
 */
export function trimLineEnds(text: string): string {
  return text
    .split('\n')
    .map((line) => line.slice(0, endWithoutSpaces(line)))
    .join('\n');
}
