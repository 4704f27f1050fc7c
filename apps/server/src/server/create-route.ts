// A route is a declaration: an endpoint of the contracts' registry plus what the registry does
// not hold (rate-limit bucket, handler). createRoute does, in this order: request id, auth
// (401/403), per-tenant rate limit (429 + Retry-After), body/query/params validation against the
// endpoint's schemas (400 with field messages), the handler, response validation, and one error
// mapping to `{ error: { code, message } }` with the contract's status. Route files stay a few
// lines long.
import { randomUUID } from 'node:crypto';
import {
  checkLimit,
  DEFAULT_INPUT_LIMITS,
  jsonNesting,
  type EndpointDefinition,
} from '@tandem/contracts';
import type { z } from 'zod';
import { EnvError } from '../env';
import { keyDigest } from './admission';
import { rememberKey } from './admission-state';
import { authenticate, type AuthContext } from './auth';
import { clientAddress } from './client-address';
import { reportError } from './error-reporting';
import { HttpError, isError, mapError, validationError } from './http-error';
import type { Logger } from '@tandem/observability';
import { rateLimitHeaders, type RateLimitBucket } from './rate-limit';
import { getRuntime, type Runtime } from './runtime';
import { describeStartupFailure } from './startup-failure';

type AnySchema = z.ZodType;
/** The endpoint's schema under `key`, or undefined when the endpoint has none. */
type SchemaAt<E, K extends 'request' | 'query' | 'params'> =
  E extends Readonly<Record<K, infer S extends AnySchema>> ? S : undefined;
type Infer<S> = S extends AnySchema ? z.output<S> : undefined;

/** What a handler gets; body, query and params are typed by the endpoint's schemas. */
export interface HandlerContext<E extends EndpointDefinition> {
  body: Infer<SchemaAt<E, 'request'>>;
  query: Infer<SchemaAt<E, 'query'>>;
  params: Infer<SchemaAt<E, 'params'>>;
  auth: E['auth'] extends 'none' ? null : AuthContext;
  runtime: Runtime;
  request: Request;
  log: Logger;
  requestId: string;
}

const RESULT = Symbol('route-result');

export interface RouteResult<R> {
  [RESULT]: true;
  status: number;
  body: R;
  headers?: Record<string, string>;
}

/** Answer with another status than 200 (or extra headers); the body is still validated. */
export function withStatus<R>(
  status: number,
  body: R,
  headers?: Record<string, string>,
): RouteResult<R> {
  return { [RESULT]: true, status, body, headers };
}

const isRouteResult = (value: unknown): value is RouteResult<unknown> =>
  typeof value === 'object' && value !== null && RESULT in value;

const RAW = Symbol('raw-response');

/** A Response the handler built itself (a CSV file, an event stream): sent as is. */
export interface RawResult {
  [RAW]: true;
  response: Response;
}

/**
 * Answer with a Response that is not one JSON value. Auth, rate limit, validation and error
 * mapping still apply; the `response` schema then documents the payload (e.g. each SSE event).
 */
export function rawResponse(response: Response): RawResult {
  return { [RAW]: true, response };
}

const isRawResult = (value: unknown): value is RawResult =>
  typeof value === 'object' && value !== null && RAW in value;

type ResponseBody<E extends EndpointDefinition> = z.input<E['response']>;

/** What a route adds to its endpoint: only what the registry does not hold. */
export interface RouteOptions<E extends EndpointDefinition> {
  /** Which per-tenant bucket to charge; authenticated routes default to 'default'. */
  rateLimit?: RateLimitBucket | false;
  /** A body limit below the server's MAX_BODY_BYTES for this route (413 above it). */
  maxBodyBytes?: number;
  /**
   * The route may call a model for the tenant: refused with 429 DAILY_LIMIT_EXCEEDED once the
   * tenant spent its daily tokens or cost (TENANT_DAILY_*_LIMIT).
   */
  spendsTokens?: boolean;
  handler: (
    ctx: HandlerContext<E>,
  ) => Promise<ResponseBody<E> | RouteResult<ResponseBody<E>> | RawResult>;
}

type RouteParams = Record<string, string | string[] | undefined>;
export type NextRouteContext = { params: Promise<RouteParams> };

export type RouteHandler = ((request: Request, context: NextRouteContext) => Promise<Response>) & {
  /** The registry endpoint this route serves (a test checks every route against the registry). */
  readonly endpoint: EndpointDefinition;
  /** The same handler bound to an explicit runtime (tests, other processes). */
  withRuntime(
    runtime: Runtime,
  ): (request: Request, context?: NextRouteContext) => Promise<Response>;
  /** The same handler with another way to build its runtime (a start that fails, in tests). */
  withRuntimeLoader(
    load: () => Promise<Runtime>,
  ): (request: Request, context?: NextRouteContext) => Promise<Response>;
};

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    },
  });
}

async function readJsonBody(
  request: Request,
  maxBytes: number,
  maxDepth: number,
): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    throw new HttpError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes.`);
  }
  const text = await request.text();
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    throw new HttpError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes.`);
  }
  if (text.trim() === '') return undefined;
  // Schemas, converters and our own walks recurse per level: a body nested 6,000 deep (36 KB)
  // overflowed the stack of an outputSchema check and answered 500.
  checkLimit(
    { ...DEFAULT_INPUT_LIMITS, structuredMaxDepth: maxDepth },
    'structuredMaxDepth',
    jsonNesting(text, maxDepth),
    'The request body nests at least',
  );
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError('BAD_REQUEST', 'Request body is not valid JSON.');
  }
}

function parseWith<S extends AnySchema>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'params',
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, where);
  return parsed.data;
}

async function chargeRateLimit(
  runtime: Runtime,
  bucket: RateLimitBucket | false,
  tenantId: string,
  headers: Record<string, string>,
): Promise<void> {
  if (bucket === false) return;
  const decision = await runtime.rateLimiters.consume(bucket, tenantId);
  Object.assign(headers, rateLimitHeaders(decision));
  if (!decision.allowed) {
    throw new HttpError(
      'RATE_LIMITED',
      `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${headers['Retry-After']} s.`,
    );
  }
}

/**
 * Bearer authentication behind the per-address limit on failures: an address past
 * AUTH_FAILURES_PER_MIN is refused before its key is looked up, and each failure counts.
 */
async function authenticateLimited(
  runtime: Runtime,
  request: Request,
  mode: Exclude<EndpointDefinition['auth'], 'none'>,
  headers: Record<string, string>,
): Promise<AuthContext> {
  const address = clientAddress(request.headers, runtime.env.TRUST_PROXY_HOPS);
  const blocked = await runtime.authFailures.blocked(address);
  if (blocked) {
    Object.assign(headers, rateLimitHeaders(blocked));
    throw new HttpError(
      'RATE_LIMITED',
      `Too many failed authentications from this address; retry in ${headers['Retry-After']} s.`,
    );
  }
  try {
    const auth = await authenticate(request, runtime.store, mode);
    // For the request hook's refusals of this key's later requests (admission.ts).
    const header = request.headers.get('authorization');
    if (header?.startsWith('Bearer '))
      rememberKey(keyDigest(header.slice(7).trim()), auth.tenantId);
    return auth;
  } catch (error) {
    if (isError(error, HttpError, 'HttpError') && error.code === 'UNAUTHORIZED') {
      await runtime.authFailures.fail(address);
    }
    throw error;
  }
}

interface ParsedInput {
  body: unknown;
  query: unknown;
  params: unknown;
}

/** Body, then query, then params, each checked against the endpoint's schema when it has one. */
async function parseInput(
  endpoint: EndpointDefinition,
  runtime: Runtime,
  request: Request,
  context: NextRouteContext | undefined,
  maxBodyBytes: number | undefined,
): Promise<ParsedInput> {
  const url = new URL(request.url);
  const limit = Math.min(maxBodyBytes ?? Infinity, runtime.env.MAX_BODY_BYTES);
  const body = endpoint.request
    ? parseWith(
        endpoint.request,
        await readJsonBody(request, limit, runtime.env.STRUCTURED_MAX_DEPTH),
        'body',
      )
    : undefined;
  const query = endpoint.query
    ? parseWith(endpoint.query, Object.fromEntries(url.searchParams), 'query')
    : undefined;
  const params = endpoint.params
    ? parseWith(endpoint.params, (await context?.params) ?? {}, 'params')
    : undefined;
  return { body, query, params };
}

function respond(
  endpoint: EndpointDefinition,
  result: unknown,
  headers: Record<string, string>,
  log: Logger,
  started: number,
): Response {
  if (isRawResult(result)) {
    const { response } = result;
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    log.debug('request answered', { status: response.status, ms: Date.now() - started });
    return response;
  }
  const {
    status,
    body: payload,
    headers: extra,
  } = isRouteResult(result) ? result : { status: 200, body: result, headers: undefined };
  const checked = endpoint.response.safeParse(payload);
  if (!checked.success) {
    // Our bug, not the client's: never send a response that breaks the contract.
    log.error('response failed contract validation', {
      issues: checked.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`),
    });
    throw new Error('response contract violation');
  }
  log.debug('request done', { status, ms: Date.now() - started });
  return json(status, checked.data, { ...headers, ...extra });
}

interface Failure {
  route: string;
  runtime: Runtime;
  log: Logger;
  auth: AuthContext | null;
  requestId: string;
  started: number;
  headers: Record<string, string>;
}

function answerError(error: unknown, failure: Failure): Response {
  const { runtime, log, auth, started } = failure;
  const mapped = mapError(error);
  if (mapped.unexpected) {
    log.error('request failed', { status: mapped.status, error, ms: Date.now() - started });
    // Exceptions go to Sentry (never LangFuse), tagged with the trace of the same request.
    reportError(error, {
      route: failure.route,
      tenantId: auth?.tenantId ?? null,
      userId: auth?.userId ?? null,
      traceId: runtime.tracing.currentTraceId() ?? runtime.tracing.traceIdOf(error),
      requestId: failure.requestId,
    });
  } else {
    log.info('request rejected', {
      status: mapped.status,
      code: mapped.body.error.code,
      ms: Date.now() - started,
    });
  }
  return json(mapped.status, mapped.body, { ...failure.headers, ...mapped.headers });
}

/** "POST /api/agent/interact": how logs and error reports name a route. */
const routeName = (endpoint: EndpointDefinition): string => `${endpoint.method} ${endpoint.path}`;

async function serve<E extends EndpointDefinition>(
  endpoint: E,
  route: RouteOptions<E>,
  runtime: Runtime,
  request: Request,
  context?: NextRouteContext,
): Promise<Response> {
  const name = routeName(endpoint);
  const requestId = request.headers.get('x-request-id')?.slice(0, 64) || randomUUID();
  const started = Date.now();
  let log = runtime.log.child({ requestId, route: name });
  const headers: Record<string, string> = { 'x-request-id': requestId };
  let auth: AuthContext | null = null;
  try {
    if (endpoint.auth !== 'none') {
      auth = await authenticateLimited(runtime, request, endpoint.auth, headers);
      log = log.child({ tenantId: auth.tenantId, userId: auth.userId });
      await chargeRateLimit(runtime, route.rateLimit ?? 'default', auth.tenantId, headers);
      if (route.spendsTokens === true) await runtime.usageCaps.check(auth.tenantId);
    }
    const input = await parseInput(endpoint, runtime, request, context, route.maxBodyBytes);
    type Ctx = HandlerContext<E>;
    const result = await route.handler({
      // parseInput checked each value against the very schema these types are inferred from.
      body: input.body as Ctx['body'],
      query: input.query as Ctx['query'],
      params: input.params as Ctx['params'],
      auth: auth as Ctx['auth'],
      runtime,
      request,
      log,
      requestId,
    });
    return respond(endpoint, result, headers, log, started);
  } catch (error) {
    return answerError(error, { route: name, runtime, log, auth, requestId, started, headers });
  }
}

// The message clients have always had with this 503; only its code is new.
const NOT_READY_MESSAGE = 'Server is not ready: the store could not be opened.';
const MISCONFIGURED_MESSAGE =
  'Server is not ready: its configuration is invalid (the server log says which variable).';

// A last resort: `next start` exits when its start fails (instrumentation-node.ts), so this is
// reached under `next dev`, or when a runtime that started fine cannot be rebuilt.
function notReady(error: unknown): Response {
  // No runtime means no logger either; stderr is all there is.
  console.error(`[tandem] server runtime failed to start:\n${describeStartupFailure(error)}`);
  const message = error instanceof EnvError ? MISCONFIGURED_MESSAGE : NOT_READY_MESSAGE;
  const mapped = mapError(new HttpError('SERVICE_UNAVAILABLE', message));
  return json(mapped.status, mapped.body, mapped.headers);
}

/**
 * The Next route handler of a registry endpoint: `export const POST =
 * createRoute(endpoints.interact, { rateLimit: 'interact', handler })`. Name, auth and every
 * schema come from the endpoint, so a route cannot drift from the contract clients build on.
 */
export function createRoute<E extends EndpointDefinition>(
  endpoint: E,
  route: RouteOptions<E>,
): RouteHandler {
  const loaded =
    (load: () => Promise<Runtime>) =>
    async (request: Request, context?: NextRouteContext): Promise<Response> => {
      let runtime: Runtime;
      try {
        runtime = await load();
      } catch (error) {
        return notReady(error);
      }
      return serve(endpoint, route, runtime, request, context);
    };
  return Object.assign(loaded(getRuntime), {
    endpoint,
    withRuntime:
      (runtime: Runtime) =>
      (request: Request, context?: NextRouteContext): Promise<Response> =>
        serve(endpoint, route, runtime, request, context),
    withRuntimeLoader: loaded,
  });
}
