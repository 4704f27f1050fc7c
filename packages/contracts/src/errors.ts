// The single error envelope every route answers with: `{ "error": { "code", "message" } }`.
// No stack traces, ever; field-level messages for validation errors.
import { z } from 'zod';

export const ErrorCode = z.enum([
  'UNAUTHORIZED',
  'FORBIDDEN',
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'TASK_COMPLETED',
  'TASK_FAILED',
  'TASK_BUSY',
  'TASK_CANCELLED',
  'INVALID_ACTION',
  'MAX_STEPS_EXCEEDED',
  'MAX_RETRIES_EXCEEDED',
  'RATE_LIMITED',
  'DAILY_LIMIT_EXCEEDED',
  'LLM_NOT_CONFIGURED',
  'LLM_ERROR',
  'LLM_REFUSED',
  'PAYLOAD_TOO_LARGE',
  'INPUT_TOO_COMPLEX',
  'CONCURRENCY_LIMITED',
  'QUOTA_EXCEEDED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const FieldError = z.object({
  path: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof FieldError>;

export const ErrorResponse = z.object({
  error: z.object({
    code: ErrorCode,
    message: z.string(),
    fields: z.array(FieldError).optional(),
  }),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/**
 * The HTTP status each code is answered with. Kept here, beside the codes, so the server's
 * error mapping and the extension's retry logic cannot disagree.
 */
export const ERROR_HTTP_STATUS = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  // A path of the API asked with a method it does not answer (the Allow header lists those).
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  TASK_COMPLETED: 409,
  TASK_FAILED: 409,
  TASK_BUSY: 409,
  TASK_CANCELLED: 409,
  INVALID_ACTION: 400,
  // Limits end the task with a 400, not a server error (docs/specs.md, "limits fail the task
  // with a 400").
  MAX_STEPS_EXCEEDED: 400,
  MAX_RETRIES_EXCEEDED: 400,
  RATE_LIMITED: 429,
  // The tenant spent its daily tokens or cost (TENANT_DAILY_*_LIMIT): Retry-After says when the
  // UTC day ends; waiting a minute, as for RATE_LIMITED, will not help.
  DAILY_LIMIT_EXCEEDED: 429,
  LLM_NOT_CONFIGURED: 503,
  LLM_ERROR: 502,
  // The model refused this request for a reason a resend will not change (its safety filter
  // blocked the prompt or the answer, or the provider rejected the request itself): the task
  // fails at once rather than being retried for minutes.
  LLM_REFUSED: 422,
  PAYLOAD_TOO_LARGE: 413,
  // Input over a parsing budget (pages, depth, elements, pixels, unpacked size; input-limits.ts):
  // the request is well formed, and sending it again will not help; the message names the
  // limit and its setting.
  INPUT_TOO_COMPLEX: 422,
  // The tenant already has as many document runs, crawls or file readings going as it may
  // (DOCUMENT_RUNS_PER_TENANT…): Retry-After says when to try again.
  CONCURRENCY_LIMITED: 429,
  // A tenant's stored knowledge is over its quota: not a malformed request, and retrying will not help.
  QUOTA_EXCEEDED: 403,
  INTERNAL_ERROR: 500,
  // The process is up but its runtime did not start (e.g. the store could not be opened); the
  // next request tries again, so a client may retry.
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, number>;
