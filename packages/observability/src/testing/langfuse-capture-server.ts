// A local HTTP server playing LangFuse for tests and benchmarks: the real SDK exports OTLP JSON
// spans to /api/public/otel/v1/traces and score batches to /api/public/ingestion (answered
// 207, as LangFuse does). It decodes what arrives so tests assert on the trace tree LangFuse
// would build, and can hang or fail to play an outage. Loopback only, port chosen by the OS.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type AttributeValue = string | number | boolean | null | AttributeValue[];

export interface CapturedSpan {
  traceId: string;
  spanId: string;
  /** null for a root span. */
  parentSpanId: string | null;
  name: string;
  scope: string;
  attributes: Record<string, AttributeValue>;
  startTimeMs: number;
  endTimeMs: number;
  status: { code: number; message?: string };
}

export interface CapturedScore {
  id: string;
  traceId?: string;
  observationId?: string;
  name: string;
  value: number | string;
  dataType?: string;
  comment?: string;
  environment?: string;
}

export interface CapturedRequest {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
}

/** ok: answer like LangFuse; hang: accept and never answer; error: 500 to everything. */
export type CaptureMode = 'ok' | 'hang' | 'error';

export interface LangfuseCaptureServer {
  /** http://127.0.0.1:<port>, for LANGFUSE_BASE_URL. */
  readonly baseUrl: string;
  readonly spans: CapturedSpan[];
  readonly scores: CapturedScore[];
  readonly requests: CapturedRequest[];
  mode: CaptureMode;
  /** Resolves once `predicate` holds over what has arrived; rejects after `timeoutMs`. */
  waitFor(predicate: (server: LangfuseCaptureServer) => boolean, timeoutMs?: number): Promise<void>;
  /** Spans of one trace. */
  trace(traceId: string): CapturedSpan[];
  /** Attribute parsed as JSON (the SDK serialises input, output, usage and cost details). */
  json(span: CapturedSpan, attribute: string): unknown;
  reset(): void;
  close(): Promise<void>;
}

interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: { key: string; value: OtlpAnyValue }[];
  status?: { code?: number; message?: string };
}

interface OtlpRequest {
  resourceSpans?: {
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

function decodeValue(value: OtlpAnyValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decodeValue);
  return null;
}

/** OTLP/JSON ids are hex; some encoders send base64. Normalise to lowercase hex. */
function hexId(id: string | undefined): string | null {
  if (!id) return null;
  if (/^[0-9a-f]+$/i.test(id)) return id.toLowerCase();
  return Buffer.from(id, 'base64').toString('hex');
}

const nanosToMs = (n: string | number): number => Number(BigInt(n) / 1_000_000n);

function decodeOtlp(body: OtlpRequest): CapturedSpan[] {
  const out: CapturedSpan[] = [];
  for (const rs of body.resourceSpans ?? []) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        const parent = hexId(s.parentSpanId);
        out.push({
          traceId: hexId(s.traceId) ?? '',
          spanId: hexId(s.spanId) ?? '',
          parentSpanId: parent && !/^0+$/.test(parent) ? parent : null,
          name: s.name,
          scope: ss.scope?.name ?? '',
          attributes: Object.fromEntries(
            (s.attributes ?? []).map((a) => [a.key, decodeValue(a.value)]),
          ),
          startTimeMs: nanosToMs(s.startTimeUnixNano),
          endTimeMs: nanosToMs(s.endTimeUnixNano),
          status: {
            code: s.status?.code ?? 0,
            ...(s.status?.message ? { message: s.status.message } : {}),
          },
        });
      }
    }
  }
  return out;
}

export async function startLangfuseCaptureServer(
  options: { mode?: CaptureMode } = {},
): Promise<LangfuseCaptureServer> {
  const spans: CapturedSpan[] = [];
  const scores: CapturedScore[] = [];
  const requests: CapturedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({
        path,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
      });
      if (capture.mode === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (capture.mode === 'error') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"message":"capture server in error mode"}');
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end('{"message":"expected JSON (OTLP/HTTP JSON encoding)"}');
        return;
      }
      if (req.method === 'POST' && path === '/api/public/otel/v1/traces') {
        spans.push(...decodeOtlp(body as OtlpRequest));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      } else if (req.method === 'POST' && path === '/api/public/ingestion') {
        const batch =
          (body as { batch?: { id: string; type: string; body: CapturedScore }[] }).batch ?? [];
        const successes: { id: string; status: number }[] = [];
        for (const event of batch) {
          if (event.type === 'score-create') scores.push(event.body);
          successes.push({ id: event.id, status: 201 });
        }
        res.writeHead(207, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ successes, errors: [] }));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"message":"not found"}');
      }
      notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const capture: LangfuseCaptureServer = {
    baseUrl: `http://127.0.0.1:${port}`,
    spans,
    scores,
    requests,
    mode: options.mode ?? 'ok',
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
          reject(
            new Error(
              `capture server: condition not met within ${timeoutMs} ms ` +
                `(${spans.length} spans, ${scores.length} scores received)`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    trace: (traceId) => spans.filter((s) => s.traceId === traceId),
    json(span, attribute) {
      const raw = span.attributes[attribute];
      if (typeof raw !== 'string') return raw;
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
    },
    reset() {
      spans.length = 0;
      scores.length = 0;
      requests.length = 0;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return capture;
}

/** A port nothing listens on: bound, then closed, so connecting is refused at once. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
