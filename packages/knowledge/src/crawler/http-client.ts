// One HTTP GET with the crawler's rules: redirects followed by hand (so every hop is checked
// against the SSRF guard, the site and robots.txt before we connect), a per-request timeout,
// the politeness gate, and a body read only when wanted and never past the byte cap.
import type { HostGate } from './host-gate';
import { normaliseUrl } from './urls';

export const MAX_REDIRECTS = 5;

/** A page that could not be fetched; counted as failed, the crawl goes on. */
export class PageError extends Error {
  override readonly name = 'PageError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A page we chose not to fetch or keep (robots.txt, off-site, not a document); counted skipped. */
export class PageSkipped extends Error {
  override readonly name = 'PageSkipped';
}

export interface HttpClientOptions {
  fetch: typeof fetch;
  gate: HostGate;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  /** Server shutdown: no new request starts once it aborts (requests in flight finish). */
  signal?: AbortSignal;
}

export interface HttpResult {
  /** The last URL requested: the one that answered with a non-redirect status. */
  finalUrl: string;
  /** Every URL requested, in order (the asked-for URL first). */
  hops: string[];
  status: number;
  contentType: string;
  /** Null when `wantBody` said no; the connection was released without reading it. */
  body: Uint8Array | null;
  /** The body went on past maxBytes and was cut there. */
  truncated: boolean;
}

export interface GetOptions {
  accept: string;
  /** Runs before each hop (the first included); throws PageError/PageSkipped to refuse it. */
  checkHop(url: string): Promise<void>;
  wantBody(status: number, contentType: string): boolean;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Reads at most `maxBytes`; a longer body is cut there (the rest is never downloaded). */
async function readCapped(
  response: Response,
  maxBytes: number,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!response.body) return { body: new Uint8Array(), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - size;
    if (value.byteLength > room) truncated = true;
    const chunk = truncated ? value.subarray(0, room) : value;
    chunks.push(chunk);
    size += chunk.byteLength;
    if (truncated) break;
  }
  await reader.cancel().catch(() => undefined);
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { body, truncated };
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `timed out after ${timeoutMs} ms`;
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

async function request(
  url: string,
  http: HttpClientOptions,
  get: GetOptions,
): Promise<{ response: Response; release: () => void }> {
  const release = await http.gate.acquire(new URL(url).host, http.signal);
  try {
    const response = await http.fetch(url, {
      redirect: 'manual',
      headers: { 'user-agent': http.userAgent, accept: get.accept },
      // The shutdown signal is deliberately not passed: a request that started finishes, so
      // its page is recorded once and a resumed crawl does not fetch it again.
      signal: AbortSignal.timeout(http.timeoutMs),
    });
    return { response, release };
  } catch (error) {
    release();
    throw new PageError(`fetch failed: ${describeFailure(error, http.timeoutMs)}`);
  }
}

function nextHop(response: Response, url: string, hops: string[]): string {
  const location = response.headers.get('location');
  const next = location === null ? null : normaliseUrl(location, url);
  if (!next) throw new PageError(`redirect without a usable Location (${response.status})`);
  if (hops.includes(next)) throw new PageError('redirect loop', response.status);
  if (hops.length > MAX_REDIRECTS) {
    throw new PageError(`too many redirects (more than ${MAX_REDIRECTS})`, response.status);
  }
  return next;
}

/**
 * GET `url`, following up to MAX_REDIRECTS redirects; throws PageError / PageSkipped. `hops`
 * receives each URL as it is requested, so a caller still knows what was touched on a throw.
 */
export async function httpGet(
  url: string,
  http: HttpClientOptions,
  get: GetOptions,
  hops: string[] = [],
): Promise<HttpResult> {
  let current = url;
  for (;;) {
    await get.checkHop(current);
    hops.push(current);
    const { response, release } = await request(current, http, get);
    try {
      if (REDIRECT_STATUSES.has(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        current = nextHop(response, current, hops);
        continue;
      }
      const contentType = response.headers.get('content-type') ?? '';
      const wanted = get.wantBody(response.status, contentType);
      const read = wanted ? await readCapped(response, http.maxBytes) : null;
      if (!wanted) await response.body?.cancel().catch(() => undefined);
      return {
        finalUrl: current,
        hops,
        status: response.status,
        contentType,
        body: read?.body ?? null,
        truncated: read?.truncated ?? false,
      };
    } catch (error) {
      if (error instanceof PageError || error instanceof PageSkipped) throw error;
      throw new PageError(`reading the response failed: ${describeFailure(error, http.timeoutMs)}`);
    } finally {
      release();
    }
  }
}
