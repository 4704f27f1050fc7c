// One mapping from failures to `{ error: { code, message } }`. Routes throw; createRoute maps.
import type { ErrorCode, ErrorResponse, FieldError } from '@tandem/contracts';
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

export function mapError(error: unknown): MappedError {
  if (error instanceof HttpError) {
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
  if (error instanceof VersionConflictError) {
    return {
      status: 409,
      body: {
        error: { code: 'TASK_BUSY', message: 'Another request is advancing this task; retry.' },
      },
      headers: {},
      unexpected: false,
    };
  }
  if (error instanceof DuplicateKeyError) {
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
