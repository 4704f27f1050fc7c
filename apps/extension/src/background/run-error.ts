// How an error thrown during one request of the loop ends the run (or does not).
import { ApiError } from '../shared/api-client';

/**
 * The run's error message for what a request threw, or null when the loop should simply send
 * the next request: TASK_BUSY (409) means another request of ours is still advancing the task.
 */
export function runErrorMessage(error: unknown): string | null {
  if (error instanceof ApiError && error.status === 409 && error.code === 'TASK_BUSY') return null;
  return error instanceof Error ? error.message : String(error);
}
