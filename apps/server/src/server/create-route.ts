// A route is a declaration. createRoute does, in this order: request id, auth (401/403),
// per-tenant rate limit (429 + Retry-After), body/query/params validation against the
// contracts (400 with field messages), the handler, response validation, and one error mapping
// to `{ error: { code, message } }` with the contract's status. Route files stay a few lines long.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { authenticate, type AuthContext, type AuthMode } from './auth';
import { reportError } from './error-reporting';
import { HttpError, mapError, validationError } from './http-error';
import type { Logger } from './logger';
import { rateLimitHeaders, type RateLimitBucket } from './rate-limit';
import { getRuntime, type Runtime } from './runtime';

type AnySchema = z.ZodType;
type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<B, Q, P, A extends AuthMode> {
  body: B;
  query: Q;
  params: P;
  auth: A extends 'none' ? null : AuthContext;
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

export interface RouteDefinition<
  BS extends AnySchema | undefined,
  QS extends AnySchema | undefined,
  PS extends AnySchema | undefined,
  RS extends AnySchema,
  A extends AuthMode,
> {
  /** For logs: "POST /api/agent/interact". */
  name: string;
  auth: A;
  /** Which per-tenant bucket to charge; authenticated routes default to 'default'. */
  rateLimit?: RateLimitBucket | false;
  body?: BS;
  query?: QS;
  params?: PS;
  response: RS;
  handler: (
    ctx: HandlerContext<Infer<BS>, Infer<QS>, Infer<PS>, A>,
  ) => Promise<z.input<RS> | RouteResult<z.input<RS>> | RawResult>;
}

type RouteParams = Record<string, string | string[] | undefined>;
export type NextRouteContext = { params: Promise<RouteParams> };

export type RouteHandler = ((request: Request, context: NextRouteContext) => Promise<Response>) & {
  /** The same handler bound to an explicit runtime (tests, other processes). */
  withRuntime(
    runtime: Runtime,
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

async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    throw new HttpError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes.`);
  }
  const text = await request.text();
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    throw new HttpError('PAYLOAD_TOO_LARGE', `Request body is larger than ${maxBytes} bytes.`);
  }
  if (text.trim() === '') return undefined;
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

// The message clients have always had with this 503; only its code is new.
const NOT_READY_MESSAGE = 'Server is not ready: the store could not be opened.';

export function createRoute<
  BS extends AnySchema | undefined = undefined,
  QS extends AnySchema | undefined = undefined,
  PS extends AnySchema | undefined = undefined,
  RS extends AnySchema = AnySchema,
  A extends AuthMode = AuthMode,
>(definition: RouteDefinition<BS, QS, PS, RS, A>): RouteHandler {
  const run = async (
    runtime: Runtime,
    request: Request,
    context?: NextRouteContext,
  ): Promise<Response> => {
    const requestId = request.headers.get('x-request-id')?.slice(0, 64) || randomUUID();
    const started = Date.now();
    let log = runtime.log.child({ requestId, route: definition.name });
    const headers: Record<string, string> = { 'x-request-id': requestId };
    let auth: AuthContext | null = null;
    try {
      if (definition.auth !== 'none') {
        auth = await authenticate(request, runtime.store, definition.auth);
        log = log.child({ tenantId: auth.tenantId, userId: auth.userId });
        const bucket = definition.rateLimit ?? 'default';
        if (bucket !== false) {
          const decision = await runtime.rateLimiters.consume(bucket, auth.tenantId);
          Object.assign(headers, rateLimitHeaders(decision));
          if (!decision.allowed) {
            throw new HttpError(
              'RATE_LIMITED',
              `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${headers['Retry-After']} s.`,
            );
          }
        }
      }
      const url = new URL(request.url);
      const body = definition.body
        ? parseWith(
            definition.body,
            await readJsonBody(request, runtime.env.MAX_BODY_BYTES),
            'body',
          )
        : undefined;
      const query = definition.query
        ? parseWith(definition.query, Object.fromEntries(url.searchParams), 'query')
        : undefined;
      const params = definition.params
        ? parseWith(definition.params, (await context?.params) ?? {}, 'params')
        : undefined;

      const result = await definition.handler({
        body: body as Infer<BS>,
        query: query as Infer<QS>,
        params: params as Infer<PS>,
        auth: auth as HandlerContext<Infer<BS>, Infer<QS>, Infer<PS>, A>['auth'],
        runtime,
        request,
        log,
        requestId,
      });
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
      const checked = definition.response.safeParse(payload);
      if (!checked.success) {
        // Our bug, not the client's: never send a response that breaks the contract.
        log.error('response failed contract validation', {
          issues: checked.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`),
        });
        throw new Error('response contract violation');
      }
      log.debug('request done', { status, ms: Date.now() - started });
      return json(status, checked.data, { ...headers, ...extra });
    } catch (error) {
      const mapped = mapError(error);
      if (mapped.unexpected) {
        log.error('request failed', { status: mapped.status, error, ms: Date.now() - started });
        // Exceptions go to Sentry (never LangFuse), tagged with the trace of the same request.
        reportError(error, {
          route: definition.name,
          tenantId: auth?.tenantId ?? null,
          userId: auth?.userId ?? null,
          traceId: runtime.tracing.currentTraceId() ?? runtime.tracing.traceIdOf(error),
          requestId,
        });
      } else {
        log.info('request rejected', {
          status: mapped.status,
          code: mapped.body.error.code,
          ms: Date.now() - started,
        });
      }
      return json(mapped.status, mapped.body, { ...headers, ...mapped.headers });
    }
  };

  const handler = (async (request: Request, context: NextRouteContext) => {
    let runtime: Runtime;
    try {
      runtime = await getRuntime();
    } catch (error) {
      // No runtime means no logger either; stderr is all there is.
      console.error('[tandem] server runtime failed to start:', error);
      const mapped = mapError(new HttpError('SERVICE_UNAVAILABLE', NOT_READY_MESSAGE));
      return json(mapped.status, mapped.body, mapped.headers);
    }
    return run(runtime, request, context);
  }) as RouteHandler;
  handler.withRuntime = (runtime) => (request, context) => run(runtime, request, context);
  return handler;
}
