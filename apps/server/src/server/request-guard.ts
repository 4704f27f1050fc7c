// Requests under /api/ that no route can take, answered in our envelope before Next.js routes
// them. Next answers some of them itself, outside every route: a malformed percent-encoding in a
// path segment (`/api/stacks/%zz`, `%FF`, `%C0%AF`) throws in its router and comes back as a
// plain-text 500 (an upstream bug), a dot segment (`/api/stacks/..`) is redirected, an unknown
// path gets the HTML 404 page and a known path with another method an empty 405. A client of
// the API reads JSON; an operator's error tracker should not hear of a client's typo.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ERROR_HTTP_STATUS,
  endpoints,
  type EndpointDefinition,
  type ErrorCode,
} from '@tandem/contracts';
import { admit } from './admission';

export interface Refusal {
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
}

/** Each endpoint's path as segments; `:name` matches any one segment. */
const ROUTES: readonly { segments: string[]; endpoint: EndpointDefinition }[] = Object.values(
  endpoints,
).map((endpoint) => ({ segments: endpoint.path.split('/').slice(1), endpoint }));

const matches = (pattern: string[], segments: string[]): boolean =>
  pattern.length === segments.length &&
  pattern.every((part, i) => part.startsWith(':') || part === segments[i]);

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The endpoint a request is for, or why no route can answer it. */
export type Routing = { endpoint: EndpointDefinition } | { refusal: Refusal };

/**
 * Why no route can answer `method url`, or null when one can (or the path is not the API's).
 * `url` is the request target as sent: path and query, not yet decoded.
 */
export function apiRefusal(method: string, url: string): Refusal | null {
  const routing = routeOf(method, url);
  return routing && 'refusal' in routing ? routing.refusal : null;
}

/** Which endpoint answers `method url`, why none can, or null outside the API. */
export function routeOf(method: string, url: string): Routing | null {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  if (path !== '/api' && !path.startsWith('/api/')) return null;
  // A trailing slash is Next's to redirect; the path it names is the same.
  const segments = path
    .replace(/(.)\/$/, '$1')
    .split('/')
    .slice(1);
  const plain: string[] = [];
  for (const segment of segments) {
    const text = decoded(segment);
    if (text === null) {
      return {
        refusal: {
          code: 'BAD_REQUEST',
          message:
            'The request path has a malformed percent-encoding (a "%" not followed by a UTF-8 byte sequence).',
        },
      };
    }
    plain.push(text);
  }
  const found = ROUTES.filter(
    ({ segments: pattern }) =>
      matches(pattern, plain) && plain.every((s) => s !== '' && s !== '.' && s !== '..'),
  );
  if (found.length === 0) {
    return { refusal: { code: 'NOT_FOUND', message: `No API route at ${path.slice(0, 200)}.` } };
  }
  const upper = method.toUpperCase();
  const asked = upper === 'HEAD' || upper === 'OPTIONS' ? 'GET' : upper;
  const match = found.find(({ endpoint }) => endpoint.method === asked) ?? found[0];
  const allowed = found.map(({ endpoint }) => endpoint.method);
  if (match && (upper === 'OPTIONS' || allowed.includes(asked as never))) {
    return { endpoint: match.endpoint };
  }
  return {
    refusal: {
      code: 'METHOD_NOT_ALLOWED',
      message: `${path.slice(0, 200)} answers ${allowed.join(', ')}, not ${upper.slice(0, 20)}.`,
      headers: { Allow: allowed.join(', ') },
    },
  };
}

/** Answers the request with the refusal in the API's envelope. */
export function sendRefusal(res: ServerResponse, refusal: Refusal): void {
  const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
  res.writeHead(ERROR_HTTP_STATUS[refusal.code], {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
    ...refusal.headers,
  });
  res.end(body);
}

/**
 * True when the request was answered here (and must not reach Next): no route can take it, or
 * its API key has as many requests in the server as it may (admission.ts).
 */
export function guardApiRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const routing = routeOf(req.method ?? 'GET', req.url ?? '/');
  if (!routing) return false;
  const refusal = 'refusal' in routing ? routing.refusal : admit(req, res, routing.endpoint);
  if (!refusal) return false;
  // The body is not read: drain it so the connection stays usable.
  req.resume();
  sendRefusal(res, refusal);
  return true;
}
