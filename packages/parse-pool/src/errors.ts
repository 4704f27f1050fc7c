// Errors cross the thread boundary as data: a structured clone keeps an Error's message but
// not its class or fields, and the server answers by class (422 for a budget, 400 for a file
// it cannot read). Only what a client may see crosses: the message, and for failures nobody
// expected, the stack for the server's log.
import type { InputLimitName, PoolLimitName } from '@tandem/contracts';

export type SerializedError =
  /** Over an input budget: InputTooComplexError. */
  | { kind: 'too-complex'; limit: InputLimitName | PoolLimitName; message: string }
  /** A refusal the parsers raise for bad input: ParseError, UnsupportedFormatError… */
  | { kind: 'refused'; name: string; message: string; format?: string }
  /** Anything else: a library failing on this input (or our bug; the stack goes to the log). */
  | { kind: 'failed'; name: string; message: string; stack?: string };

/** The parsers' own refusals of bad input, by class name (classes do not cross threads). */
const REFUSALS = new Set(['ParseError', 'UnsupportedFormatError']);

const isStackOverflow = (error: unknown): boolean =>
  error instanceof RangeError && /call stack/i.test(error.message);

export function serializeError(error: unknown, nestingLimit: InputLimitName): SerializedError {
  if (!(error instanceof Error)) return { kind: 'failed', name: 'Error', message: String(error) };
  if (error.name === 'InputTooComplexError' && 'limit' in error) {
    return {
      kind: 'too-complex',
      limit: error.limit as InputLimitName | PoolLimitName,
      message: error.message,
    };
  }
  if (REFUSALS.has(error.name)) {
    const format = 'format' in error && typeof error.format === 'string' ? error.format : undefined;
    return {
      kind: 'refused',
      name: error.name,
      message: error.message,
      ...(format ? { format } : {}),
    };
  }
  // A recursive parser on input nested past what the thread's stack holds: the input's fault.
  if (isStackOverflow(error)) {
    return {
      kind: 'too-complex',
      limit: nestingLimit,
      message: 'The input nests too deeply to be read.',
    };
  }
  return {
    kind: 'failed',
    name: error.name,
    message: error.message,
    ...(error.stack ? { stack: error.stack } : {}),
  };
}
