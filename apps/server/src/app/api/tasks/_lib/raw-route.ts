// createRoute for answers that are not one JSON value (a CSV file, a server-sent event
// stream): the same order of auth, per-tenant rate limit, query/params validation and error
// mapping, but the handler builds the Response itself. createRoute always serializes and
// validates JSON, which a stream cannot go through.
// Should createRoute grow a "raw response" option, this file can go.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { authenticate, type AuthContext } from '../../../../server/auth';
import type { NextRouteContext, RouteHandler } from '../../../../server/create-route';
import { HttpError, mapError, validationError } from '../../../../server/http-error';
import type { Logger } from '../../../../server/logger';
import { rateLimitHeaders, type RateLimitBucket } from '../../../../server/rate-limit';
import { getRuntime, type Runtime } from '../../../../server/runtime';

export interface RawHandlerContext<Q, P> {
  query: Q;
  params: P;
  auth: AuthContext;
  runtime: Runtime;
  request: Request;
  log: Logger;
  requestId: string;
}

export interface RawRouteDefinition<QS extends z.ZodType, PS extends z.ZodType> {
  /** For logs: "GET /api/tasks/:taskId/events". */
  name: string;
  rateLimit?: RateLimitBucket;
  query: QS;
  params: PS;
  handler: (ctx: RawHandlerContext<z.output<QS>, z.output<PS>>) => Promise<Response>;
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    },
  });
}

function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'query' | 'params',
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, where);
  return parsed.data;
}

/** An API-key route whose handler answers with its own Response. */
export function createRawRoute<QS extends z.ZodType, PS extends z.ZodType>(
  definition: RawRouteDefinition<QS, PS>,
): RouteHandler {
  const run = async (
    runtime: Runtime,
    request: Request,
    context?: NextRouteContext,
  ): Promise<Response> => {
    const requestId = request.headers.get('x-request-id')?.slice(0, 64) || randomUUID();
    const started = Date.now();
    let log = runtime.log.child({ requestId, route: definition.name });
    const headers: Record<string, string> = { 'x-request-id': requestId };
    try {
      const auth = await authenticate(request, runtime.store, 'apiKey');
      log = log.child({ tenantId: auth.tenantId, userId: auth.userId });
      const decision = await runtime.rateLimiters.consume(
        definition.rateLimit ?? 'default',
        auth.tenantId,
      );
      Object.assign(headers, rateLimitHeaders(decision));
      if (!decision.allowed) {
        throw new HttpError(
          429,
          'RATE_LIMITED',
          `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${headers['Retry-After']} s.`,
        );
      }
      const url = new URL(request.url);
      const query = parseWith(definition.query, Object.fromEntries(url.searchParams), 'query');
      const params = parseWith(definition.params, (await context?.params) ?? {}, 'params');
      const response = await definition.handler({
        query,
        params,
        auth,
        runtime,
        request,
        log,
        requestId,
      });
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      log.debug('request answered', { status: response.status, ms: Date.now() - started });
      return response;
    } catch (error) {
      const mapped = mapError(error);
      if (mapped.unexpected) {
        log.error('request failed', { status: mapped.status, error, ms: Date.now() - started });
      } else {
        log.info('request rejected', { status: mapped.status, code: mapped.body.error.code });
      }
      return jsonResponse(mapped.status, mapped.body, { ...headers, ...mapped.headers });
    }
  };

  const handler = (async (request: Request, context: NextRouteContext) => {
    let runtime: Runtime;
    try {
      runtime = await getRuntime();
    } catch (error) {
      console.error('[tandem] server runtime failed to start:', error);
      return jsonResponse(
        503,
        {
          error: {
            code: 'INTERNAL_ERROR',
            message: 'Server is not ready: the store could not be opened.',
          },
        },
        {},
      );
    }
    return run(runtime, request, context);
  }) as RouteHandler;
  handler.withRuntime = (runtime) => (request, context) => run(runtime, request, context);
  return handler;
}

/** The tenant's task, or 404 — the same answer for another tenant's task as for none. */
export async function requireTask(runtime: Runtime, tenantId: string, taskId: string) {
  const task = await runtime.store.tasks.get(tenantId, taskId);
  if (!task) throw new HttpError(404, 'NOT_FOUND', `Task ${taskId} not found.`);
  return task;
}
