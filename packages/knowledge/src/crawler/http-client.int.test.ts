// httpGet against a real loopback server: redirect limits, timeouts, the byte cap, and that a
// body nobody wants is never downloaded.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostGate } from './host-gate';
import { httpGet, MAX_REDIRECTS, PageError } from './http-client';
import type { GetOptions, HttpClientOptions } from './http-client';

let server: Server;
let origin: string;
const BIG = 'x'.repeat(256 * 1024);

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const step = Number(url.searchParams.get('n') ?? '0');
    switch (url.pathname) {
      case '/chain':
        // /chain?n=k redirects k more times, then answers.
        if (step > 0) res.writeHead(301, { location: `/chain?n=${step - 1}` }).end();
        else res.writeHead(200, { 'content-type': 'text/plain' }).end('end of chain');
        return;
      case '/no-location':
        res.writeHead(302).end();
        return;
      case '/slow':
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('late'), 500);
        return;
      case '/big':
        res.writeHead(200, { 'content-type': 'text/plain' }).end(BIG);
        return;
      default:
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const http = (overrides: Partial<HttpClientOptions> = {}): HttpClientOptions => ({
  fetch: globalThis.fetch,
  gate: new HostGate(2, 0),
  userAgent: 'TandemBot/1.0 (+https://tandem.dev/bot)',
  timeoutMs: 5_000,
  maxBytes: 1024 * 1024,
  ...overrides,
});

const get = (overrides: Partial<GetOptions> = {}): GetOptions => ({
  accept: '*/*',
  checkHop: async () => undefined,
  wantBody: (status) => status === 200,
  ...overrides,
});

describe('httpGet', () => {
  it(`follows up to ${MAX_REDIRECTS} redirects, checking every hop`, async () => {
    const checked: string[] = [];
    const result = await httpGet(
      `${origin}/chain?n=${MAX_REDIRECTS}`,
      http(),
      get({ checkHop: async (url) => void checked.push(url) }),
    );
    expect(result.status).toBe(200);
    expect(result.finalUrl).toBe(`${origin}/chain?n=0`);
    expect(result.hops).toHaveLength(MAX_REDIRECTS + 1);
    expect(checked).toEqual(result.hops);
    expect(new TextDecoder().decode(result.body ?? undefined)).toBe('end of chain');
  });

  it('gives up after one redirect too many', async () => {
    const hops: string[] = [];
    await expect(
      httpGet(`${origin}/chain?n=${MAX_REDIRECTS + 1}`, http(), get(), hops),
    ).rejects.toThrow(`too many redirects (more than ${MAX_REDIRECTS})`);
    expect(hops).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('refuses a redirect without a Location', async () => {
    await expect(httpGet(`${origin}/no-location`, http(), get())).rejects.toThrow(
      /redirect without a usable Location/,
    );
  });

  it('stops the hop that checkHop refuses, before requesting it', async () => {
    const hops: string[] = [];
    const refusal = httpGet(
      `${origin}/chain?n=2`,
      http(),
      get({
        checkHop: async (url) => {
          if (url.endsWith('n=1')) throw new PageError('refused: test');
        },
      }),
      hops,
    );
    await expect(refusal).rejects.toThrow('refused: test');
    expect(hops).toEqual([`${origin}/chain?n=2`]);
  });

  it('times out a slow server', async () => {
    await expect(httpGet(`${origin}/slow`, http({ timeoutMs: 100 }), get())).rejects.toThrow(
      'fetch failed: timed out after 100 ms',
    );
  });

  it('caps the body at maxBytes and says so', async () => {
    const result = await httpGet(`${origin}/big`, http({ maxBytes: 10_000 }), get());
    expect(result.body?.byteLength).toBe(10_000);
    expect(result.truncated).toBe(true);
    const whole = await httpGet(`${origin}/big`, http(), get());
    expect(whole.body?.byteLength).toBe(BIG.length);
    expect(whole.truncated).toBe(false);
  });

  it('returns error statuses without reading a body nobody wants', async () => {
    const result = await httpGet(`${origin}/missing`, http(), get());
    expect(result).toMatchObject({ status: 404, body: null, contentType: 'text/html' });
  });

  it('reports a refused connection as a page error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expect(httpGet(`http://127.0.0.1:${port}/`, http(), get())).rejects.toThrow(
      'fetch failed: ECONNREFUSED',
    );
  });
});
