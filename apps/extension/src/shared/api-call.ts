// One JSON call to the Tandem server, and how each way it can fail becomes an ApiError that
// callers tell apart by status and code: unreachable (0, NETWORK), refused (the contract's
// ErrorCode) or answered in an unexpected shape (BAD_RESPONSE).
import { ErrorResponse } from '@tandem/contracts';
import type { z } from 'zod';
import type { Settings } from './settings';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ServerCall<S extends z.ZodType> {
  method: string;
  /** Path with its parameters and query filled in (buildPath). */
  path: string;
  /** The response contract; a 2xx body that does not match it is an error too. */
  schema: S;
  body?: unknown;
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

/**
 * The error for a non-2xx answer: the contract's code and message when the body is an
 * ErrorResponse (a proxy's error page is not), and the Retry-After wait when there is one.
 */
export function httpError(status: number, json: unknown, retryAfter: string | null): ApiError {
  const parsed = ErrorResponse.safeParse(json);
  return new ApiError(
    status,
    parsed.success ? parsed.data.error.code : 'HTTP_ERROR',
    (parsed.success ? parsed.data.error.message : `Server answered ${status}`) +
      (retryAfter ? ` (retry after ${retryAfter} s)` : ''),
  );
}

/** Sends the call and returns its response as the contract parses it; every failure throws. */
export async function callServer<S extends z.ZodType>(
  settings: Pick<Settings, 'serverUrl' | 'apiKey'>,
  fetchFn: typeof fetch,
  call: ServerCall<S>,
): Promise<z.output<S>> {
  let res: Response;
  try {
    res = await fetchFn(
      `${settings.serverUrl}${call.path}`,
      requestInit(settings.apiKey, call.method, call.body),
    );
  } catch (error) {
    throw networkError(settings.serverUrl, error);
  }
  const json: unknown = await res.json().catch(() => null);
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
