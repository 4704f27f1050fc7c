// What a request that waited for an upload's job answers when the job failed: the code the
// file's reader chose, as the request would have answered reading the file itself. A server-side
// failure's reason may name internals, so it stays on the page that lists the upload, and the
// client is told what to retry instead.
import { ERROR_HTTP_STATUS, ErrorCode } from '@tandem/contracts';
import { HttpError } from './http-error';

export function uploadFailure(
  failure: { failureCode: string | null | undefined; error: string | null },
  retry: { what: string; path: string },
): HttpError {
  const parsed = ErrorCode.safeParse(failure.failureCode);
  const code = parsed.success ? parsed.data : 'INTERNAL_ERROR';
  const message =
    ERROR_HTTP_STATUS[code] >= 500
      ? `The file could not be read now; ${retry.what} can be retried (POST ${retry.path}).`
      : (failure.error ?? 'The file could not be read.');
  return new HttpError(
    code,
    message,
    code === 'SERVICE_UNAVAILABLE' ? { headers: { 'retry-after': '30' } } : {},
  );
}
