// One JSON call to the Tandem server, and how each way it can fail becomes an ApiError that
// callers tell apart by status and code: unreachable (0, NETWORK), refused (the contract's
// ErrorCode) or answered in an unexpected shape (BAD_RESPONSE). Whether the same request
// may be sent again is decided here too, so every caller retries the same errors.
import { ErrorResponse } from '@tandem/contracts';
import type { z } from 'zod';
import type { Settings } from './settings';

/**
 * The two 409 CONFLICTs of an idempotent interact request (packages/agent idempotent-replay):
 * the first request with this key is still running (wait and repeat it), or the key was used
 * for another body (a fresh key is needed). The server tells them apart only by message.
 */
export type KeyConflict = 'in_progress' | 'different_request';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** How long the server asked us to wait (Retry-After), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  get keyConflict(): KeyConflict | null {
    if (this.status !== 409 || this.code !== 'CONFLICT') return null;
    if (/still in progress/i.test(this.message)) return 'in_progress';
    if (/already used for a different request/i.test(this.message)) return 'different_request';
    return null;
  }

  /**
   * The same request may succeed when sent again later: the server was unreachable or failed
   * (5xx, except a server with no model configured, which no wait fixes), limited our rate,
   * or is still busy with an earlier request of the task.
   */
  get retryable(): boolean {
    if (this.status === 0) return this.code === 'NETWORK';
    if (this.status === 429) return true;
    if (this.status >= 500) return this.code !== 'LLM_NOT_CONFIGURED';
    return this.code === 'TASK_BUSY' || this.keyConflict === 'in_progress';
  }
}

export interface ServerCall<S extends z.ZodType> {
  method: string;
  /** Path with its parameters and query filled in (buildPath). */
  path: string;
  /** The response contract; a 2xx body that does not match it is an error too. */
  schema: S;
  body?: unknown;
  /** Aborts the call (Stop, a time limit): it then throws ABORTED, never NETWORK. */
  signal?: AbortSignal;
}

/** The fetch options of a call: a JSON body and its content type only when there is a body. */
export function requestInit(apiKey: string, method: string, body?: unknown): RequestInit {
  return {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

export function networkError(serverUrl: string, error: unknown): ApiError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ApiError(0, 'NETWORK', `Cannot reach the Tandem server at ${serverUrl} (${reason}).`);
}

export const abortedError = (): ApiError =>
  new ApiError(0, 'ABORTED', 'The request to the Tandem server was cancelled.');

/**
 * A Retry-After header in milliseconds: delay-seconds or an HTTP date (RFC 9110 § 10.2.3).
 * Undefined when absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  // An HTTP date names its day and month; Date.parse alone would read "-3" as a year.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The error for a non-2xx answer: the contract's code and message when the body is an
 * ErrorResponse (a proxy's error page is not), and the Retry-After wait when there is one.
 */
export function httpError(
  status: number,
  json: unknown,
  retryAfter: string | null,
  now = Date.now(),
): ApiError {
  const parsed = ErrorResponse.safeParse(json);
  return new ApiError(
    status,
    parsed.success ? parsed.data.error.code : 'HTTP_ERROR',
    (parsed.success ? parsed.data.error.message : `Server answered ${status}`) +
      (retryAfter ? ` (retry after ${retryAfter} s)` : ''),
    parseRetryAfter(retryAfter, now),
  );
}

/** Sends the call and returns its response as the contract parses it; every failure throws. */
export async function callServer<S extends z.ZodType>(
  settings: Pick<Settings, 'serverUrl' | 'apiKey'>,
  fetchFn: typeof fetch,
  call: ServerCall<S>,
): Promise<z.output<S>> {
  const { signal } = call;
  let res: Response;
  try {
    res = await fetchFn(`${settings.serverUrl}${call.path}`, {
      ...requestInit(settings.apiKey, call.method, call.body),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    throw signal?.aborted ? abortedError() : networkError(settings.serverUrl, error);
  }
  const json: unknown = await res.json().catch(() => null);
  if (signal?.aborted) throw abortedError();
  if (!res.ok) throw httpError(res.status, json, res.headers.get('retry-after'));
  const parsed = call.schema.safeParse(json);
  if (!parsed.success)
    throw new ApiError(
      res.status,
      'BAD_RESPONSE',
      'The server answered with an unexpected response shape.',
    );
  return parsed.data;
}
