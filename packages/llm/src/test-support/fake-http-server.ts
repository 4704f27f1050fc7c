// A loopback HTTP server standing in for Gemini, OpenAI-compatible endpoints and Tavily in
// integration tests, so the real SDKs (URL building, headers, error parsing) are exercised.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the body is JSON, the raw text otherwise. */
  body: unknown;
}

export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  /** Serialised as JSON unless `raw` is given. */
  body?: unknown;
  raw?: string;
  /** Wait before answering (timeouts). */
  delayMs?: number;
}

export type FakeHandler = (request: RecordedRequest) => FakeResponse | Promise<FakeResponse>;

export interface FakeHttpServer {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  requests: RecordedRequest[];
  /** Responses served in order before the fallback handler. */
  enqueue(...responses: (FakeResponse | FakeHandler)[]): void;
  setHandler(handler: FakeHandler): void;
  close(): Promise<void>;
}

export async function startFakeHttpServer(fallback?: FakeHandler): Promise<FakeHttpServer> {
  const requests: RecordedRequest[] = [];
  const queue: (FakeResponse | FakeHandler)[] = [];
  let handler: FakeHandler =
    fallback ?? (() => ({ status: 500, body: { error: 'no response queued' } }));

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // Not JSON: keep the text.
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      const next = queue.shift() ?? handler;
      void Promise.resolve(typeof next === 'function' ? next(recorded) : next).then(
        async (response) => {
          if (response.delayMs !== undefined) {
            await new Promise((resolve) => setTimeout(resolve, response.delayMs));
          }
          if (res.destroyed) return;
          const payload = response.raw ?? JSON.stringify(response.body ?? {});
          res.writeHead(response.status ?? 200, {
            'content-type': response.raw !== undefined ? 'text/plain' : 'application/json',
            ...response.headers,
          });
          res.end(payload);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...responses) => queue.push(...responses),
    setHandler: (next) => {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening (connection refused). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
