// What went wrong in an extraction call, by kind (docs/specs.md, "error recovery and aggregation"),
// and what each kind gets as a retry: a validation failure a stricter prompt, an empty answer a
// hint, a timeout a split of the chunk, a rate limit a backoff. The LLM port reports failures as
// messages; the kind is read from them here in one place.
import type { ExtractionErrorKind } from '@tandem/contracts';

export class EmptyExtractionError extends Error {
  override readonly name = 'EmptyExtractionError';
}

/** The merged data failed the full schema (after chunks each passed the relaxed one). */
export class ExtractionValidationError extends Error {
  override readonly name = 'ExtractionValidationError';
}

export function classifyError(error: unknown): ExtractionErrorKind {
  if (error instanceof EmptyExtractionError) return 'empty';
  if (error instanceof ExtractionValidationError) return 'validation';
  const message = error instanceof Error ? error.message : String(error);
  if (/timed out|timeout|deadline/i.test(message)) return 'timeout';
  if (/\b429\b|rate.?limit|quota|resource.?exhausted|too many requests/i.test(message)) {
    return 'rate_limit';
  }
  if (/schema|did not match|invalid json|not valid json|validation|expected/i.test(message)) {
    return 'validation';
  }
  return 'provider';
}

export const errorMessage = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Errors no retry can fix, rethrown to the caller rather than recorded per chunk: no model is
 * configured (the operator's setup), or the caller aborted.
 */
export function isFatal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'LlmNotConfiguredError' || error.name === 'AbortError';
}
