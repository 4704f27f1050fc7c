// A local HTTP server playing Sentry's ingest endpoint: the real Sentry SDK posts envelopes to
// /api/<project>/envelope/ for the DSN http://<key>@127.0.0.1:<port>/<project>. Decodes
// envelopes (newline-delimited JSON, gzip when large) into items tests can assert on.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface EnvelopeItem {
  type: string;
  headers: Record<string, unknown>;
  /** Parsed JSON payload, or the raw text for non-JSON items. */
  payload: unknown;
}

export interface CapturedEnvelope {
  projectId: string;
  headers: Record<string, unknown>;
  items: EnvelopeItem[];
}

export interface SentryCaptureServer {
  /** A DSN pointing at this server (project 1). */
  readonly dsn: string;
  readonly envelopes: CapturedEnvelope[];
  /** Every item of the given type ("event", "transaction", "session"…) received so far. */
  items(type: string): EnvelopeItem[];
  waitFor(predicate: (server: SentryCaptureServer) => boolean, timeoutMs?: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

function parseEnvelope(body: Buffer): { headers: Record<string, unknown>; items: EnvelopeItem[] } {
  let offset = 0;
  const readLine = (): string | null => {
    if (offset >= body.length) return null;
    let end = body.indexOf(0x0a, offset);
    if (end === -1) end = body.length;
    const line = body.subarray(offset, end).toString('utf8');
    offset = end + 1;
    return line;
  };
  const headers = JSON.parse(readLine() ?? '{}') as Record<string, unknown>;
  const items: EnvelopeItem[] = [];
  for (;;) {
    const headerLine = readLine();
    if (headerLine === null) break;
    if (headerLine.trim() === '') continue;
    const itemHeaders = JSON.parse(headerLine) as Record<string, unknown>;
    let raw: string;
    if (typeof itemHeaders.length === 'number') {
      raw = body.subarray(offset, offset + itemHeaders.length).toString('utf8');
      offset += itemHeaders.length + 1;
    } else {
      raw = readLine() ?? '';
    }
    let payload: unknown = raw;
    try {
      payload = JSON.parse(raw) as unknown;
    } catch {
      // Attachments and other binary items stay as text.
    }
    items.push({ type: String(itemHeaders.type), headers: itemHeaders, payload });
  }
  return { headers, items };
}

export async function startSentryCaptureServer(): Promise<SentryCaptureServer> {
  const envelopes: CapturedEnvelope[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const match = /^\/api\/([^/]+)\/envelope\/?/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) {
        res.writeHead(404).end();
        return;
      }
      try {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        envelopes.push({ projectId: match[1] ?? '', ...parseEnvelope(body) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
      for (const w of [...waiters]) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const capture: SentryCaptureServer = {
    dsn: `http://public@127.0.0.1:${port}/1`,
    envelopes,
    items: (type) => envelopes.flatMap((e) => e.items.filter((i) => i.type === type)),
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (predicate(capture)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`sentry capture: condition not met (${envelopes.length} envelopes)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    reset() {
      envelopes.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return capture;
}
