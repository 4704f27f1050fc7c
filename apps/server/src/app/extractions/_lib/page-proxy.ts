// The /extractions page's calls: the same /api routes (auth, rate limit, validation, errors
// and the SSE streams all theirs), reached with the key from the page's httpOnly cookie instead
// of a Bearer header a script would have to hold. Writes must come from this origin.
import type { NextRouteContext, RouteHandler } from '../../../server/create-route';
import { readCookie, sameOrigin } from '../../../server/key-session';
import { USER_COOKIE } from '../../../server/user-session';
import { GET as getDocument } from '../../api/documents/[documentId]/route';
import { POST as retryDocument } from '../../api/documents/[documentId]/retry/route';
import { GET as listDocuments, POST as uploadDocument } from '../../api/documents/route';
import { POST as correct } from '../../api/extractions/[extractionId]/correct/route';
import { POST as retry } from '../../api/extractions/[extractionId]/retry/route';
import { GET as followExtraction } from '../../api/extractions/[extractionId]/events/route';
import { GET as getExtraction } from '../../api/extractions/[extractionId]/route';
import { GET as listExtractions, POST as createExtraction } from '../../api/extractions/route';

type Handler = (request: Request, context: NextRouteContext) => Promise<Response>;

/** The API route for a method and a path under /extractions/api, with its path parameters. */
function routeFor(
  method: string,
  path: string[],
): { handler: RouteHandler; params: Record<string, string> } | null {
  const [first, id, action, ...rest] = path;
  if (rest.length > 0) return null;
  if (first === 'documents') {
    if (id === undefined)
      return { handler: method === 'POST' ? uploadDocument : listDocuments, params: {} };
    if (action === undefined && method === 'GET')
      return { handler: getDocument, params: { documentId: id } };
    if (action === 'retry' && method === 'POST')
      return { handler: retryDocument, params: { documentId: id } };
    return null;
  }
  if (first !== 'extractions') return null;
  if (id === undefined)
    return { handler: method === 'POST' ? createExtraction : listExtractions, params: {} };
  if (action === undefined && method === 'GET')
    return { handler: getExtraction, params: { extractionId: id } };
  if (action === 'correct' && method === 'POST')
    return { handler: correct, params: { extractionId: id } };
  if (action === 'retry' && method === 'POST')
    return { handler: retry, params: { extractionId: id } };
  if (action === 'events' && method === 'GET')
    return { handler: followExtraction, params: { extractionId: id } };
  return null;
}

const refuse = (status: number, message: string) =>
  new Response(
    JSON.stringify({ error: { code: status === 404 ? 'NOT_FOUND' : 'FORBIDDEN', message } }),
    {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    },
  );

/**
 * The page routes' handler. `bind` gives the API route to call (the route as Next serves it;
 * tests bind it to their own runtime).
 */
export function pageProxy(bind: (route: RouteHandler) => Handler = (route) => route) {
  return (request: Request, context: { params: Promise<{ path?: string[] }> }) =>
    forward(request, context, bind);
}

async function forward(
  request: Request,
  context: { params: Promise<{ path?: string[] }> },
  bind: (route: RouteHandler) => Handler,
) {
  const { path = [] } = await context.params;
  const route = routeFor(request.method, path);
  if (!route) return refuse(404, 'No such page route.');
  if (request.method !== 'GET' && !sameOrigin(request))
    return refuse(403, 'Cross-site request refused.');
  const headers = new Headers();
  const type = request.headers.get('content-type');
  if (type) headers.set('content-type', type);
  // A run's stream followed again after a dropped connection resumes after the last write seen.
  const lastEventId = request.headers.get('last-event-id');
  if (lastEventId) headers.set('last-event-id', lastEventId);
  // No cookie means no key: the API answers 401 as it does to any request without one.
  const key = readCookie(request, USER_COOKIE);
  if (key) headers.set('authorization', `Bearer ${key}`);
  const url = new URL(request.url);
  const forwarded = new Request(new URL(`/api/${path.join('/')}${url.search}`, url), {
    method: request.method,
    headers,
    ...(request.method === 'GET' ? {} : { body: await request.arrayBuffer() }),
    signal: request.signal,
  });
  return bind(route.handler)(forwarded, { params: Promise.resolve(route.params) });
}
