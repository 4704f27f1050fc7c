// One mapping from failures to `{ error: { code, message } }`. Routes throw; createRoute maps.
import { InteractError } from '@tandem/agent';
import { DocumentError } from '@tandem/documents';
import { LlmCallError } from '@tandem/llm';
import {
  ERROR_HTTP_STATUS,
  ErrorCode,
  InputTooComplexError,
  type ErrorResponse,
  type FieldError,
} from '@tandem/contracts';
import { DuplicateKeyError, VersionConflictError } from '@tandem/store';
import type { z } from 'zod';

export interface HttpErrorOptions {
  fields?: FieldError[];
  headers?: Record<string, string>;
}

/** A refusal with its contract code; the status is the contract's, never chosen by the thrower. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: HttpErrorOptions = {},
  ) {
    super(message);
    this.status = ERROR_HTTP_STATUS[code];
  }
}

/** zod issues as field messages a client can show next to the offending field. */
export function fieldErrors(error: z.ZodError, root?: string): FieldError[] {
  return error.issues.map((issue) => ({
    path: [root, ...issue.path.map(String)].filter(Boolean).join('.') || '(root)',
    message: issue.message,
  }));
}

export function validationError(error: z.ZodError, where: 'body' | 'query' | 'params'): HttpError {
  const fields = fieldErrors(error, where === 'body' ? undefined : where);
  const summary = fields
    .slice(0, 3)
    .map((f) => `${f.path}: ${f.message}`)
    .join('; ');
  const more = fields.length > 3 ? ` (+${fields.length - 3} more)` : '';
  return new HttpError('VALIDATION_ERROR', `Invalid request ${where}: ${summary}${more}`, {
    fields,
  });
}

export interface MappedError {
  status: number;
  body: ErrorResponse;
  headers: Record<string, string>;
  /** Unexpected failures are logged with their stack; expected 4xx are not noise. */
  unexpected: boolean;
}

// Matched by name, not instanceof: a bundler may load a package twice (route chunk and shared
// chunk), and an error class from the other copy would fail instanceof and turn into a 500.
// The names are the classes' own `name` fields (minifiers rename classes, not string fields).
export function isError<T extends Error>(
  error: unknown,
  type: abstract new (...args: never[]) => T,
  name: string,
): error is T {
  return error instanceof type || (error instanceof Error && error.name === name);
}

/**
 * Errors of packages this module does not load (the parsers' ParseError, the parse pool's
 * QueueFullError), recognised by their class's name field.
 */
const isNamed = (error: unknown, name: string): error is Error =>
  error instanceof Error && error.name === name;

/** A tenant's files wait for the parse pool's threads: worth another try a few seconds on. */
const QUEUE_RETRY_AFTER_SECONDS = 5;

/** The answer for a code: status from the contract, nothing else to pick. */
function answer(
  code: ErrorCode,
  message: string,
  unexpected: boolean,
  options: HttpErrorOptions = {},
): MappedError {
  return {
    status: ERROR_HTTP_STATUS[code],
    body: { error: { code, message, ...(options.fields ? { fields: options.fields } : {}) } },
    headers: options.headers ?? {},
    unexpected,
  };
}

/** A 5xx worth an error log and a report, except a missing model: a setup the operator chose. */
const isIncident = (code: ErrorCode): boolean =>
  ERROR_HTTP_STATUS[code] >= 500 && code !== 'LLM_NOT_CONFIGURED';

export function mapError(error: unknown): MappedError {
  if (isError(error, HttpError, 'HttpError')) {
    return answer(error.code, error.message, isIncident(error.code), error.options);
  }
  // The interact flow's and the document service's refusals: an ErrorCode each, mapped alike.
  if (
    isError(error, InteractError, 'InteractError') ||
    isError(error, DocumentError, 'DocumentError')
  ) {
    // Checked, not trusted: an error matched by name may come from another copy of the package.
    const code = ErrorCode.safeParse(error.code);
    if (code.success) return answer(code.data, error.message, isIncident(code.data));
  }
  // Untrusted input over a budget, or unreadable: the client's input, never a server error.
  if (isError(error, InputTooComplexError, 'InputTooComplexError')) {
    return answer('INPUT_TOO_COMPLEX', error.message, false);
  }
  if (isNamed(error, 'ParseError')) {
    return answer('BAD_REQUEST', `The input could not be read: ${error.message}`, false);
  }
  if (isNamed(error, 'QueueFullError')) {
    return answer('CONCURRENCY_LIMITED', error.message, false, {
      headers: { 'Retry-After': String(QUEUE_RETRY_AFTER_SECONDS) },
    });
  }
  if (isError(error, LlmCallError, 'LlmCallError')) {
    // A refusal a resend cannot change (a safety block) is not a fault of ours, nor worth
    // retrying: 422, as the agent answers it (modelRefusal).
    if (!error.details.retryable) {
      return answer(
        'LLM_REFUSED',
        'The language model refused to answer this request; sending it again will not change that.',
        false,
      );
    }
    return answer('LLM_ERROR', 'The language model failed to answer; retry the request.', true);
  }
  if (isError(error, VersionConflictError, 'VersionConflictError')) {
    return answer('TASK_BUSY', 'Another request is advancing this task; retry.', false);
  }
  if (isError(error, DuplicateKeyError, 'DuplicateKeyError')) {
    return answer('CONFLICT', 'This record already exists.', false);
  }
  // Never leak internals (messages can carry SQL, paths or driver details).
  return answer('INTERNAL_ERROR', 'Internal server error.', true);
}
