// How an error thrown during one request of the loop reads as the run's error. Retryable
// errors only get here once retrying stopped making sense (send-request.ts).
import { ApiError } from '../shared/api-client';

export function runErrorMessage(error: unknown): string {
  // The one error the user fixes in the extension itself: say where.
  if (error instanceof ApiError && error.code === 'UNAUTHORIZED')
    return `${error.message} Check the server URL and API key in Settings.`;
  return error instanceof Error ? error.message : String(error);
}
