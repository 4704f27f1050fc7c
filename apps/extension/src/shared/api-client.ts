// The extension's client for the Tandem server, driven by the contracts' endpoint registry:
// paths, methods and response schemas come from one place shared with the server routes.
import {
  ActiveTaskResponse,
  buildPath,
  endpoints,
  ErrorResponse,
  InteractResponse,
  WhoAmIResponse,
  type InteractRequestInput,
} from '@tandem/contracts';
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

export interface ApiClient {
  interact(body: InteractRequestInput): Promise<InteractResponse>;
  activeTask(sessionId: string, url?: string): Promise<ActiveTaskResponse | null>;
  whoami(): Promise<WhoAmIResponse>;
}

export function createApiClient(settings: Settings, fetchFn: typeof fetch = fetch): ApiClient {
  async function call<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<z.output<S>> {
    let res: Response;
    try {
      res = await fetchFn(`${settings.serverUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${settings.apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new ApiError(
        0,
        'NETWORK',
        `Cannot reach the Tandem server at ${settings.serverUrl} (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    const json: unknown = await res.json().catch(() => null);
    if (!res.ok) {
      const parsed = ErrorResponse.safeParse(json);
      const retry = res.headers.get('retry-after');
      throw new ApiError(
        res.status,
        parsed.success ? parsed.data.error.code : 'HTTP_ERROR',
        (parsed.success ? parsed.data.error.message : `Server answered ${res.status}`) +
          (retry ? ` (retry after ${retry} s)` : ''),
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new ApiError(
        res.status,
        'BAD_RESPONSE',
        'The server answered with an unexpected response shape.',
      );
    return parsed.data;
  }

  return {
    interact: (body) =>
      call(endpoints.interact.method, buildPath(endpoints.interact), InteractResponse, body),
    async activeTask(sessionId, url) {
      try {
        return await call(
          'GET',
          buildPath(endpoints.activeTask, { sessionId }, url ? { url } : {}),
          ActiveTaskResponse,
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    whoami: () => call('GET', buildPath(endpoints.whoami), WhoAmIResponse),
  };
}
