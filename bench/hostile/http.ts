// A raw HTTP client over node:http. fetch() would not do: the WHATWG URL parser resolves `..`
// and re-encodes paths before they leave, so `/api/stacks/..` or `%C0%AF` never reach the server
// as an attacker sends them (curl --path-as-is does). node:http sends `path` byte for byte, lets
// a request pick its source address on loopback (so the fuzz's failed-auth cases cannot get the
// address the suite measures from blocked), and bounds every request by a deadline.
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** Sent as is: no normalisation, no encoding. */
  path: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  /** Answer deadline in ms (headers and body); the request is aborted past it. */
  timeoutMs?: number;
  /** Source address on loopback (127.0.0.2…), for requests that must not share the suite's. */
  localAddress?: string;
  /** Stop reading the body after this many ms once the headers came (event streams). */
  bodyWindowMs?: number;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** From sending to the status line. */
  headersMs: number;
  /** From sending to the end of the body (or of the body window). */
  ms: number;
  /** The request failed before an answer (connection refused, reset, deadline). */
  error?: string;
}

const MAX_BODY_CHARS = 4 * 1024 * 1024;
const WRITE_CHUNK = 256 * 1024;

/** Writes the body in pieces, and stops once the server has answered (a 413 before the end). */
async function writeBody(outgoing: ClientRequest, body: Uint8Array, answered: () => boolean) {
  for (let at = 0; at < body.byteLength; at += WRITE_CHUNK) {
    if (answered() || outgoing.destroyed) return;
    if (!outgoing.write(body.subarray(at, at + WRITE_CHUNK)))
      await new Promise<void>((resolve) => {
        const go = () => {
          outgoing.off('drain', go);
          outgoing.off('close', go);
          resolve();
        };
        outgoing.on('drain', go);
        outgoing.on('close', go);
      });
  }
  if (!answered() && !outgoing.destroyed) outgoing.end();
}

export function send(base: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(base);
  const started = performance.now();
  let headersMs = Number.NaN;
  const failure = (error: string): RawResponse => ({
    status: 0,
    headers: {},
    text: '',
    headersMs,
    ms: performance.now() - started,
    error,
  });
  return new Promise((resolve) => {
    let settled = false;
    let responded = false;
    const done = (res: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outgoing.destroy();
      resolve(res);
    };
    const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: {
          ...(body ? { 'content-length': String(body.byteLength) } : {}),
          ...req.headers,
        },
        ...(req.localAddress ? { localAddress: req.localAddress } : {}),
        // One connection per request: a hostile case must not wait behind another's socket.
        agent: false,
      },
      (res) => {
        responded = true;
        headersMs = performance.now() - started;
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () =>
          done({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            headersMs,
            ms: performance.now() - started,
          });
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_BODY_CHARS) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
        if (req.bodyWindowMs !== undefined) setTimeout(finish, req.bodyWindowMs).unref();
      },
    );
    const deadline = setTimeout(
      () => done(failure(`no answer within ${req.timeoutMs} ms`)),
      req.timeoutMs ?? 120_000,
    );
    // After an answer, a write the server no longer reads (EPIPE) is not a failure.
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (!responded) done(failure(`${error.code ?? ''} ${error.message}`.trim()));
    });
    if (body) void writeBody(outgoing, body, () => responded);
    else outgoing.end();
  });
}

export interface FilePart {
  name: string;
  fileName: string;
  contentType: string;
  data: Uint8Array;
}

/** A multipart/form-data body with text fields and file parts, as a browser sends it. */
export function multipart(
  fields: Record<string, string>,
  files: FilePart[],
  boundary = `----tandem-hostile-${Math.random().toString(16).slice(2)}`,
): { body: Buffer; contentType: string } {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
      Buffer.from(value),
      Buffer.from('\r\n'),
    );
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.fileName}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      Buffer.from(file.data),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A JSON request with a bearer key. `body` may be a string: hostile JSON is written by hand. */
export function jsonRequest(
  key: string,
  method: string,
  path: string,
  body?: unknown,
  extra: Partial<RawRequest> = {},
): RawRequest {
  return {
    method,
    path,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    ...extra,
  };
}

/** A multipart upload of one file (`file`) with text fields. */
export function uploadRequest(
  key: string,
  path: string,
  file: Omit<FilePart, 'name'>,
  fields: Record<string, string> = {},
  extra: Partial<RawRequest> = {},
): RawRequest {
  const form = multipart(fields, [{ name: 'file', ...file }]);
  return {
    method: 'POST',
    path,
    headers: { authorization: `Bearer ${key}`, 'content-type': form.contentType },
    body: form.body,
    ...extra,
  };
}
