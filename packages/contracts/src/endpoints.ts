// The endpoint registry: server routes validate against these schemas and the extension's
// API client builds its calls from them, so a path or shape can only change in one place.
import { z } from 'zod';
import type { ErrorCode } from './errors';
import {
  ActiveTaskParams,
  ActiveTaskQuery,
  ActiveTaskResponse,
  InteractRequest,
  InteractResponse,
} from './interact';
import { HealthResponse, WhoAmIResponse } from './system';

export const HttpMethod = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
export type HttpMethod = z.infer<typeof HttpMethod>;

/** `apiKey`: `Authorization: Bearer <key>`; `admin`: the same with an admin key. */
export const EndpointAuth = z.enum(['none', 'apiKey', 'admin']);
export type EndpointAuth = z.infer<typeof EndpointAuth>;

export interface EndpointDefinition {
  readonly path: `/${string}`;
  readonly method: HttpMethod;
  readonly auth: EndpointAuth;
  /** One line for docs/api.md. */
  readonly summary: string;
  /** JSON body; absent for endpoints that take none (GET). */
  readonly request?: z.ZodType;
  /** Body of the success answer (200 unless `successStatus` says otherwise). */
  readonly response: z.ZodType;
  readonly query?: z.ZodType;
  /** Path parameters; its keys are exactly the `:name` segments of `path`. */
  readonly params?: z.ZodType;
  /** Error codes this endpoint answers with, besides the ones every endpoint can give. */
  readonly errors: readonly ErrorCode[];
  /** Extra notes for docs/api.md (status codes with a non-error body, retries…). */
  readonly notes?: readonly string[];
}

/** Keeps the literal path/method/auth types, so `buildPath` can type the params. */
export function defineEndpoint<const E extends EndpointDefinition>(endpoint: E): E {
  return endpoint;
}

/** Every endpoint can answer with these (validation, limits, unexpected failure). */
export const COMMON_ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_ERROR',
  'PAYLOAD_TOO_LARGE',
  'INTERNAL_ERROR',
] as const satisfies readonly ErrorCode[];
const AUTHENTICATED_ERROR_CODES = [
  'UNAUTHORIZED',
  'RATE_LIMITED',
] as const satisfies readonly ErrorCode[];

export const endpoints = {
  health: defineEndpoint({
    path: '/api/health',
    method: 'GET',
    auth: 'none',
    summary: 'Liveness and store health.',
    response: HealthResponse,
    errors: [],
    notes: ['Answers 503 with the same body when `status` is "degraded".'],
  }),
  whoami: defineEndpoint({
    path: '/api/auth/whoami',
    method: 'GET',
    auth: 'apiKey',
    summary: 'Check an API key: who it belongs to and which store the server runs on.',
    response: WhoAmIResponse,
    errors: [...AUTHENTICATED_ERROR_CODES],
  }),
  interact: defineEndpoint({
    path: '/api/agent/interact',
    method: 'POST',
    auth: 'apiKey',
    summary:
      'One step of the agent loop: send the page state (and the taskId after the first step), get the next action.',
    request: InteractRequest,
    response: InteractResponse,
    errors: [
      ...AUTHENTICATED_ERROR_CODES,
      'NOT_FOUND',
      'TASK_COMPLETED',
      'TASK_FAILED',
      'TASK_BUSY',
      'INVALID_ACTION',
      'MAX_STEPS_EXCEEDED',
      'MAX_RETRIES_EXCEEDED',
      'LLM_NOT_CONFIGURED',
      'LLM_ERROR',
    ],
    notes: [
      'Without `taskId` every request starts a new task: persist the taskId of each response (per tab) and send it back.',
      'When the response sets `needs_full_dom` or `needs_snapshot`, execute nothing and resend the step with the requested page state.',
    ],
  }),
  activeTask: defineEndpoint({
    path: '/api/session/:sessionId/task/active',
    method: 'GET',
    auth: 'apiKey',
    summary:
      'Recover the task of a session when the client lost its taskId (marks tasks untouched for 30 minutes as interrupted).',
    params: ActiveTaskParams,
    query: ActiveTaskQuery,
    response: ActiveTaskResponse,
    errors: [...AUTHENTICATED_ERROR_CODES, 'NOT_FOUND'],
    notes: ['404 `NOT_FOUND` means no active task: start a new one.'],
  }),
} as const;
export type EndpointName = keyof typeof endpoints;

// ------------------------------------------------------------------ paths

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** `{ sessionId: string }` for "/api/session/:sessionId/task/active". */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

export type QueryValues = Record<string, string | number | boolean | null | undefined>;

type BuildPathArgs<P extends string> = [ParamNames<P>] extends [never]
  ? [params?: Record<string, never>, query?: QueryValues]
  : [params: PathParams<P>, query?: QueryValues];

const PARAM_SEGMENT = /:([A-Za-z_][A-Za-z0-9_]*)/g;

/** The `:name` segments of a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PARAM_SEGMENT)].map((m) => m[1] ?? '');
}

/**
 * Fills `:name` segments (URI-encoded) and appends the query (null/undefined values are
 * left out). Throws when a parameter is missing or empty, rather than calling a wrong URL.
 */
export function buildPath<E extends Pick<EndpointDefinition, 'path'>>(
  endpoint: E,
  ...[params, query]: BuildPathArgs<E['path']>
): string {
  const values: Record<string, unknown> = params ?? {};
  const path = endpoint.path.replace(PARAM_SEGMENT, (_segment, name: string) => {
    const value = values[name];
    if (typeof value !== 'string' || value === '') {
      throw new Error(`buildPath(${endpoint.path}): missing path parameter "${name}"`);
    }
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.append(key, String(value));
  }
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}
