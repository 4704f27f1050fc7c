// Small response helpers shared by the static handler and the JSON API.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** An error with the status and code the client should see; thrown by handlers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

// Every response is uncacheable: tests reload pages after editing state and must never see
// a stale copy.
const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

export function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  const buffer = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': contentType,
    'content-length': String(buffer.length),
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : buffer);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value), headers);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  const headers: Record<string, string> = {};
  const allow = error.details?.allow;
  if (typeof allow === 'string') headers.allow = allow;
  sendJson(
    res,
    error.status,
    { error: { code: error.code, message: error.message, ...error.details } },
    headers,
  );
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => escapes[char] ?? char);
}

/** A real HTML page, so an agent that wanders off a site sees what a browser user would. */
export function sendHtmlError(res: ServerResponse, status: 404 | 400 | 405, path: string): void {
  const title = status === 404 ? 'Page not found' : status === 400 ? 'Bad request' : 'Not allowed';
  const detail =
    status === 404
      ? `There is no page at <code>${escapeHtml(path)}</code>.`
      : status === 400
        ? 'The request path is not valid.'
        : 'Only GET and HEAD are allowed here.';
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <title>${status} ${title} · Tandem demo sites</title>
    <link rel="stylesheet" href="/styles.css" />
  </head>
  <body>
    <main>
      <h1>${title}</h1>
      <p>${detail}</p>
      <p><a href="/">Back to all demo sites</a></p>
    </main>
  </body>
</html>
`;
  send(res, status, 'text/html; charset=utf-8', html, status === 405 ? { allow: 'GET, HEAD' } : {});
}

const MAX_BODY_BYTES = 64 * 1024;

/** Reads and parses a JSON body, refusing oversized or malformed ones with a 4xx. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) {
      throw new HttpError(413, 'PAYLOAD_TOO_LARGE', `Body exceeds ${MAX_BODY_BYTES} bytes.`);
    }
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) throw new HttpError(400, 'INVALID_JSON', 'Body must be JSON.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'INVALID_JSON', 'Body must be valid JSON.');
  }
}
