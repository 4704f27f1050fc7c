// One mapping from failures to `{ error: { code, message } }`. Routes throw; createRoute maps.
import { InteractError, LlmCallError } from '@tandem/agent';
import { ErrorCode, type ErrorResponse, type FieldError } from '@tandem/contracts';
import { DuplicateKeyError, VersionConflictError } from '@tandem/store';
import type { z } from 'zod';

export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly options: { fields?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: FieldError[]) =>
  new HttpError(400, fields ? 'VALIDATION_ERROR' : 'BAD_REQUEST', message, { fields });
export const notFound = (message: string) => new HttpError(404, 'NOT_FOUND', message);

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
  return new HttpError(400, 'VALIDATION_ERROR', `Invalid request ${where}: ${summary}${more}`, {
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
function isError<T extends Error>(
  error: unknown,
  type: abstract new (...args: never[]) => T,
  name: string,
): error is T {
  return error instanceof type || (error instanceof Error && error.name === name);
}

export function mapError(error: unknown): MappedError {
  if (isError(error, HttpError, 'HttpError')) {
    return {
      status: error.status,
      body: {
        error: {
          code: error.code,
          message: error.message,
          ...(error.options.fields ? { fields: error.options.fields } : {}),
        },
      },
      headers: error.options.headers ?? {},
      unexpected: error.status >= 500,
    };
  }
  if (isError(error, InteractError, 'InteractError')) {
    const code = ErrorCode.safeParse(error.code);
    return {
      status: error.status,
      body: { error: { code: code.success ? code.data : 'BAD_REQUEST', message: error.message } },
      headers: {},
      unexpected: error.status >= 500 && error.code !== 'LLM_NOT_CONFIGURED',
    };
  }
  if (isError(error, LlmCallError, 'LlmCallError')) {
    return {
      status: 502,
      body: {
        error: {
          code: 'LLM_ERROR',
          message: 'The language model failed to answer; retry the request.',
        },
      },
      headers: {},
      unexpected: true,
    };
  }
  if (isError(error, VersionConflictError, 'VersionConflictError')) {
    return {
      status: 409,
      body: {
        error: { code: 'TASK_BUSY', message: 'Another request is advancing this task; retry.' },
      },
      headers: {},
      unexpected: false,
    };
  }
  if (isError(error, DuplicateKeyError, 'DuplicateKeyError')) {
    return {
      status: 409,
      body: { error: { code: 'CONFLICT', message: 'This record already exists.' } },
      headers: {},
      unexpected: false,
    };
  }
  // Never leak internals (messages can carry SQL, paths or driver details).
  return {
    status: 500,
    body: { error: { code: 'INTERNAL_ERROR', message: 'Internal server error.' } },
    headers: {},
    unexpected: true,
  };
}
