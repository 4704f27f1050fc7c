// How an error thrown during one request of the loop reads as the run's error. Retryable
// errors only get here once retrying stopped making sense (send-request.ts).
export function runErrorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
