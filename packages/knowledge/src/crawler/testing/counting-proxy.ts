// For the crawler's integration tests: a real loopback HTTP server in front of the demo sites
// that records every request it sees (path, start, end) and can add latency. Counting at the
// server, not in the crawler, is what proves "never fetched twice" and "never more than N in
// flight". The Host header is passed through, so robots.txt and sitemaps name this origin.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface SeenRequest {
  path: string;
  startedAt: number;
  endedAt?: number;
}

export interface CountingProxy {
  /** Origin without a trailing slash. */
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Most requests in flight at once since the last reset. */
  readonly maxInFlight: number;
  /** Requests per path (query included). */
  hits(): Map<string, number>;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(
  upstream: string,
  options: { latencyMs?: number } = {},
): Promise<CountingProxy> {
  const target = new URL(upstream);
  const requests: SeenRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((req, res) => {
    const seen: SeenRequest = { path: req.url ?? '/', startedAt: Date.now() };
    requests.push(seen);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => {
      inFlight -= 1;
      seen.endedAt = Date.now();
    });
    void sleep(options.latencyMs ?? 0).then(() => {
      const forward = request(
        {
          host: target.hostname,
          port: target.port,
          path: seen.path,
          method: req.method,
          headers: req.headers,
        },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    hits() {
      const counts = new Map<string, number>();
      for (const { path } of requests) counts.set(path, (counts.get(path) ?? 0) + 1);
      return counts;
    },
    reset() {
      requests.length = 0;
      maxInFlight = inFlight;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
