// The single error envelope every route answers with: `{ "error": { "code", "message" } }`.
// No stack traces, ever; field-level messages for validation errors.
import { z } from 'zod';

export const ErrorCode = z.enum([
  'UNAUTHORIZED',
  'FORBIDDEN',
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'NOT_FOUND',
  'CONFLICT',
  'TASK_COMPLETED',
  'TASK_FAILED',
  'TASK_BUSY',
  'INVALID_ACTION',
  'MAX_STEPS_EXCEEDED',
  'MAX_RETRIES_EXCEEDED',
  'RATE_LIMITED',
  'LLM_NOT_CONFIGURED',
  'LLM_ERROR',
  'PAYLOAD_TOO_LARGE',
  'INTERNAL_ERROR',
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
