// Abuse limits at their defaults, through real HTTP on loopback: failed authentication limited
// per client address (the TCP peer, stamped as requests enter the process; a forged
// X-Forwarded-For or peer header changes nothing), and per-tenant daily caps on model tokens and
// cost answering 429 DAILY_LIMIT_EXCEEDED until the UTC day ends.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorResponse } from '@tandem/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as interact } from '../app/api/agent/interact/route';
import { GET as whoami } from '../app/api/auth/whoami/route';
import { tenantWithKey, testRuntime } from '../test/harness';
import { installPeerStamp } from './client-address';
import type { RouteHandler } from './create-route';
import type { Runtime } from './runtime';

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(`http://127.0.0.1${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
  });
}

/** The routes behind a node:http server on loopback, as `next start` puts them. */
async function serve(runtime: Runtime, routes: Record<string, RouteHandler>) {
  installPeerStamp();
  const server: Server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    void toRequest(req)
      .then((request) =>
        route ? route.withRuntime(runtime)(request) : new Response('', { status: 404 }),
      )
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const codeOf = async (res: Response) => ErrorResponse.parse(await res.json()).error.code;

describe('failed authentication, per client address', () => {
  let runtime: Runtime;
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    runtime = await testRuntime();
    server = await serve(runtime, { '/api/auth/whoami': whoami });
  });
  afterAll(async () => {
    await server.close();
    await runtime.close();
  });

  it('200 invalid keys in a row: 20 answer 401, then 429 with Retry-After, valid keys included', async () => {
    const { key } = await tenantWithKey(runtime.store);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let n = 0; n < 200; n++) {
      last = await fetch(`${server.url}/api/auth/whoami`, {
        headers: {
          authorization: `Bearer tdm_wrong_${n}`,
          // Forged: a different "client" each time, as an attacker would write it.
          'x-forwarded-for': `10.0.${n >> 8}.${n & 255}`,
          'x-tandem-peer-address': `192.0.2.${n & 255}`,
        },
      });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(180).fill(429));
    expect(await codeOf(last as Response)).toBe('RATE_LIMITED');
    // Blocked for AUTH_BLOCK_SECONDS (300) from the 21st failure.
    const retryAfter = Number(last?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(290);
    expect(retryAfter).toBeLessThanOrEqual(300);
    // The address is refused before its key is read: a valid key waits too.
    const valid = await fetch(`${server.url}/api/auth/whoami`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(valid.status).toBe(429);
  });

  it('another address is not affected', async () => {
    // Requests that reach no stamp (in-process) are another bucket than 127.0.0.1's.
    const { key } = await tenantWithKey(runtime.store);
    const res = await whoami.withRuntime(runtime)(
      new Request('http://127.0.0.1:3000/api/auth/whoami', {
        headers: { authorization: `Bearer ${key}` },
      }),
    );
    expect(res.status).toBe(200);
  });
});

describe('behind a trusted proxy (TRUST_PROXY_HOPS=1)', () => {
  it('the address the proxy saw is the bucket, whatever the client wrote before it', async () => {
    const runtime = await testRuntime({ TRUST_PROXY_HOPS: '1', AUTH_FAILURES_PER_MIN: '2' });
    const server = await serve(runtime, { '/api/auth/whoami': whoami });
    try {
      const attempt = (forwarded: string) =>
        fetch(`${server.url}/api/auth/whoami`, {
          headers: { authorization: 'Bearer tdm_wrong', 'x-forwarded-for': forwarded },
        }).then((res) => res.status);
      // The proxy appends the client it saw (203.0.113.7) after whatever the client sent.
      const one = [
        await attempt('1.1.1.1, 203.0.113.7'),
        await attempt('2.2.2.2, 203.0.113.7'),
        await attempt('3.3.3.3, 203.0.113.7'),
      ];
      expect(one).toEqual([401, 401, 429]);
      expect(await attempt('203.0.113.8')).toBe(401);
    } finally {
      await server.close();
      await runtime.close();
    }
  });
});

describe('daily caps per tenant (defaults: 10 M tokens, $20)', () => {
  let runtime: Runtime;
  beforeAll(async () => {
    runtime = await testRuntime();
  });
  afterAll(async () => {
    await runtime.close();
  });

  const spend = (
    tenantId: string,
    totalTokens: number,
    costMicroUsd: number,
    timestamp = new Date().toISOString(),
  ) =>
    runtime.store.tokenUsage.append(tenantId, {
      id: crypto.randomUUID(),
      userId: 'user-1',
      sessionId: null,
      messageId: null,
      taskId: null,
      traceId: null,
      provider: 'GOOGLE',
      model: 'gemini-2.5-flash',
      actionType: 'PLANNING',
      inputTokens: totalTokens,
      outputTokens: 0,
      cachedInputTokens: 0,
      thinkingTokens: 0,
      totalTokens,
      costMicroUsd,
      durationMs: 10,
      timestamp,
    });
  const step = (key: string) =>
    interact.withRuntime(runtime)(
      new Request('http://127.0.0.1:3000/api/agent/interact', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: 'https://app.example/',
          query: 'click Logout',
          interactiveTree: [{ i: 'out', r: 'link', n: 'Logout' }],
        }),
      }),
    );

  it('under the caps a tenant works; at 10 M tokens today its model routes answer 429 until midnight UTC', async () => {
    const { tenantId, key } = await tenantWithKey(runtime.store);
    await spend(tenantId, 9_999_999, 1_000_000);
    expect((await step(key)).status).toBe(200);

    const { tenantId: spender, key: spenderKey } = await tenantWithKey(runtime.store);
    await spend(spender, 6_000_000, 1_000_000);
    await spend(spender, 4_000_000, 1_000_000);
    const refused = await step(spenderKey);
    expect(refused.status).toBe(429);
    const body = ErrorResponse.parse(await refused.json());
    expect(body.error.code).toBe('DAILY_LIMIT_EXCEEDED');
    expect(body.error.message).toMatch(/10,000,000 tokens of its 10,000,000 a day/);
    const untilMidnight = Math.ceil(
      (Math.ceil(Date.now() / 86_400_000) * 86_400_000 - Date.now()) / 1000,
    );
    expect(
      Math.abs(Number(refused.headers.get('retry-after')) - untilMidnight),
    ).toBeLessThanOrEqual(2);
    // Routes that spend nothing still answer.
    const who = await whoami.withRuntime(runtime)(
      new Request('http://127.0.0.1:3000/api/auth/whoami', {
        headers: { authorization: `Bearer ${spenderKey}` },
      }),
    );
    expect(who.status).toBe(200);
  });

  it('at $20 of model cost today, whatever the tokens', async () => {
    const { tenantId, key } = await tenantWithKey(runtime.store);
    await spend(tenantId, 1_000, 20_000_000);
    const refused = await step(key);
    expect(refused.status).toBe(429);
    const body = ErrorResponse.parse(await refused.json());
    expect(body.error.code).toBe('DAILY_LIMIT_EXCEEDED');
    expect(body.error.message).toMatch(/\$20\.00 of its \$20\.00 a day/);
  });

  it("yesterday's spend does not count", async () => {
    const { tenantId, key } = await tenantWithKey(runtime.store);
    const lastMsOfYesterday = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 1;
    await spend(tenantId, 50_000_000, 100_000_000, new Date(lastMsOfYesterday).toISOString());
    expect((await step(key)).status).toBe(200);
  });
});
