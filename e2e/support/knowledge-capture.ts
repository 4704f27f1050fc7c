// A loopback HTTP server between the extension and the Tandem server that records what the
// extension sends to POST /api/knowledge/page-content (two-phase SPA ingestion), passing it and
// every other request (interact, events, whoami…) through to the real server untouched, streams
// included. The knowledge specs point the extension's settings at it, and check both what the
// extension sent and what the server stored of it.
import { endpoints, PageContentRequest } from '@tandem/contracts';
import { once } from 'node:events';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapturedPost {
  body: PageContentRequest;
  authorization: string | undefined;
  at: number;
}

export interface KnowledgeCapture {
  url: string;
  posts: CapturedPost[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends the request upstream (its body already read as `raw`, or still to be piped). */
function forwardTo(
  target: URL,
  req: IncomingMessage,
  raw: string | null,
  res: ServerResponse,
): void {
  const forward = httpRequest(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: {
        ...req.headers,
        host: target.host,
        ...(raw === null ? {} : { 'content-length': String(Buffer.byteLength(raw)) }),
      },
    },
    (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
    },
  );
  forward.on('error', () => res.destroy());
  if (raw === null) req.pipe(forward);
  else forward.end(raw);
}

export async function startKnowledgeCapture(upstream: string): Promise<KnowledgeCapture> {
  const posts: CapturedPost[] = [];
  const target = new URL(upstream);
  const route = endpoints.knowledgePageContent;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://capture').pathname;
    if (req.method === route.method && path === route.path) {
      void readBody(req).then((raw) => {
        const parsed = PageContentRequest.safeParse(JSON.parse(raw || 'null'));
        if (!parsed.success) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 'VALIDATION_ERROR', message: 'bad body' } }));
          return;
        }
        posts.push({ body: parsed.data, authorization: req.headers.authorization, at: Date.now() });
        // Recorded, then sent on: the real server stores it, so a spec can check both ends.
        forwardTo(target, req, raw, res);
      });
      return;
    }
    forwardTo(target, req, null, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => undefined);
    },
  };
}
