import { describeLimit, InputTooComplexError, type InputLimits } from '@tandem/contracts';
import { UnsupportedFormatError } from './types';

/** A file that is damaged or not what it claims to be: answered 400 with this message. */
export class ParseError extends Error {
  constructor(format: string, detail: string) {
    super(`Could not parse ${format}: ${detail}`);
    this.name = 'ParseError';
  }
}

/**
 * The errors extractDocument may throw; anything else a parser raises is turned into one of
 * them. By name too: an injected handler from another bundle of this package (the server loads
 * it in several chunks) throws its own copies of these classes.
 */
const ALLOWED = new Set([
  'ParseError',
  'OfficeConversionError',
  'UnsupportedFormatError',
  'InputTooComplexError',
]);

const isExtractionError = (error: unknown): error is Error =>
  error instanceof ParseError ||
  error instanceof UnsupportedFormatError ||
  error instanceof InputTooComplexError ||
  (error instanceof Error && ALLOWED.has(error.name));

/** V8's own words for a parser that recursed too deep: the input nests more than a stack holds. */
const isStackOverflow = (error: unknown): boolean =>
  error instanceof RangeError && /call stack/i.test(error.message);

/**
 * Turns whatever a parser threw into an error the server answers with 4xx. Library messages
 * are not passed on: they name internal paths, functions or sizes that mean nothing to the
 * person uploading, so they get one plain sentence per format instead.
 */
export function toExtractionError(error: unknown, format: string, limits: InputLimits): Error {
  if (isExtractionError(error)) return error;
  if (isStackOverflow(error)) {
    const limit = describeLimit('structuredMaxDepth', limits.structuredMaxDepth);
    return new InputTooComplexError(
      'structuredMaxDepth',
      `The ${format} file nests too deeply to be read; the limit is ${limit}.`,
    );
  }
  return new ParseError(format, `the file is damaged or is not a valid ${format} file.`);
}
