import { defineEndpoint, ErrorResponse, type HttpMethod } from '@tandem/contracts';
import type { Store } from '@tandem/store';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { GET as health } from '../app/api/health/route';
import { GET as whoami } from '../app/api/auth/whoami/route';
import { request, tenantWithKey, testRuntime } from '../test/harness';
import type { AuthContext } from './auth';
import { createRoute, withStatus } from './create-route';
import type { Runtime } from './runtime';

const Echo = z.object({
  url: z.url(),
  query: z.string().min(1, 'query must not be empty'),
  steps: z.number().int().positive().optional(),
});

const echoEndpoint = defineEndpoint({
  path: '/test/echo',
  method: 'POST',
  auth: 'apiKey',
  summary: 'test',
  request: Echo,
  response: z.object({ ok: z.literal(true), tenantId: z.string(), query: z.string() }),
  errors: [],
});

const echo = createRoute(echoEndpoint, {
  rateLimit: 'interact',
  handler: async ({ body, auth }) => ({
    ok: true as const,
    tenantId: auth.tenantId,
    query: body.query,
  }),
});

/** A test endpoint without auth, input or documented errors. */
const openEndpoint = <R extends z.ZodType>(method: HttpMethod, path: `/${string}`, response: R) =>
  defineEndpoint({ path, method, auth: 'none', summary: 'test', response, errors: [] });

const errorBody = async (res: Response) => ErrorResponse.parse(await res.json());

let runtime: Runtime;
let store: Store;

beforeEach(async () => {
  // The rate-limit tests below count to this limit; the default (300) is not what they test.
  runtime = await testRuntime({ RATE_LIMIT_INTERACT_PER_MIN: '10' });
  store = runtime.store;
});
afterEach(async () => {
  await store.close();
});

describe('GET /api/health', () => {
  it('answers without a key and names the store in use', async () => {
    const res = await health.withRuntime(runtime)(request('/api/health'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'ok', store: 'libsql' });
    expect(typeof body.storeLatencyMs).toBe('number');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('authentication', () => {
  it('401 without a key, with the error envelope and WWW-Authenticate', async () => {
    const res = await whoami.withRuntime(runtime)(request('/api/auth/whoami'));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const body = await errorBody(res);
    expect(body.error.code).toBe('UNAUTHORIZED');
    expect(body.error.message).toMatch(/Missing API key/);
  });

  it('401 with a bad key, a malformed header and a revoked key', async () => {
    const { key, keyId, tenantId } = await tenantWithKey(store);
    const bad = await whoami.withRuntime(runtime)(request('/api/auth/whoami', { key: `${key}x` }));
    expect(bad.status).toBe(401);
    expect((await errorBody(bad)).error.message).toBe('Invalid API key.');
    const basic = await whoami.withRuntime(runtime)(
      request('/api/auth/whoami', { headers: { authorization: `Basic ${key}` } }),
    );
    expect(basic.status).toBe(401);
    await store.apiKeys.revoke(tenantId, keyId);
    const revoked = await whoami.withRuntime(runtime)(request('/api/auth/whoami', { key }));
    expect(revoked.status).toBe(401);
  });

  it('200 with a valid key, resolving tenant, user and role', async () => {
    const { key, tenantId } = await tenantWithKey(store, 'admin');
    const res = await whoami.withRuntime(runtime)(request('/api/auth/whoami', { key }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      tenantId,
      userId: 'user-1',
      role: 'admin',
      store: 'libsql',
    });
  });

  it('403 for a non-admin key on an admin route', async () => {
    const adminOnlyEndpoint = defineEndpoint({
      path: '/test/admin',
      method: 'GET',
      auth: 'admin',
      summary: 'test',
      response: z.object({ ok: z.boolean() }),
      errors: [],
    });
    const adminOnly = createRoute(adminOnlyEndpoint, {
      handler: async () => ({ ok: true }),
    });
    const user = await tenantWithKey(store, 'user');
    const admin = await tenantWithKey(store, 'admin');
    const denied = await adminOnly.withRuntime(runtime)(request('/test/admin', { key: user.key }));
    expect(denied.status).toBe(403);
    expect((await errorBody(denied)).error.code).toBe('FORBIDDEN');
    const allowed = await adminOnly.withRuntime(runtime)(
      request('/test/admin', { key: admin.key }),
    );
    expect(allowed.status).toBe(200);
  });
});

describe('validation', () => {
  it('400 with field-level messages', async () => {
    const { key } = await tenantWithKey(store);
    const res = await echo.withRuntime(runtime)(
      request('/test/echo', {
        method: 'POST',
        key,
        body: { url: 'not a url', query: '', steps: -1 },
      }),
    );
    expect(res.status).toBe(400);
    const body = await errorBody(res);
    expect(body.error.code).toBe('VALIDATION_ERROR');
    const paths = body.error.fields?.map((f) => f.path).sort();
    expect(paths).toEqual(['query', 'steps', 'url']);
    expect(body.error.fields?.find((f) => f.path === 'query')?.message).toBe(
      'query must not be empty',
    );
    expect(body.error.message).toMatch(/^Invalid request body: /);
  });

  it('400 for a body that is not JSON, and for a missing body', async () => {
    const { key } = await tenantWithKey(store);
    const notJson = await echo.withRuntime(runtime)(
      request('/test/echo', { method: 'POST', key, rawBody: '{"url": ' }),
    );
    expect(notJson.status).toBe(400);
    expect((await errorBody(notJson)).error).toMatchObject({ code: 'BAD_REQUEST' });
    const missing = await echo.withRuntime(runtime)(request('/test/echo', { method: 'POST', key }));
    expect(missing.status).toBe(400);
    expect((await errorBody(missing)).error.code).toBe('VALIDATION_ERROR');
  });

  it('413 for a body over MAX_BODY_BYTES', async () => {
    const small = await testRuntime({ MAX_BODY_BYTES: '64' }, store);
    const { key } = await tenantWithKey(store);
    const res = await echo.withRuntime(small)(
      request('/test/echo', {
        method: 'POST',
        key,
        body: { url: 'https://a.example', query: 'x'.repeat(100) },
      }),
    );
    expect(res.status).toBe(413);
    expect((await errorBody(res)).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('passes valid input to the handler and validates the response', async () => {
    const { key, tenantId } = await tenantWithKey(store);
    const res = await echo.withRuntime(runtime)(
      request('/test/echo', {
        method: 'POST',
        key,
        body: { url: 'https://a.example/x', query: 'hi' },
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, tenantId, query: 'hi' });
  });

  it('validates query strings and route params', async () => {
    const endpoint = defineEndpoint({
      path: '/test/:id',
      method: 'GET',
      auth: 'apiKey',
      summary: 'test',
      query: z.object({ limit: z.coerce.number().int().max(10) }),
      params: z.object({ id: z.uuid() }),
      response: z.object({ id: z.string(), limit: z.number() }),
      errors: [],
    });
    const route = createRoute(endpoint, {
      handler: async ({ params, query, body, auth }) => {
        // The context is typed by the endpoint's schemas, not widened.
        expectTypeOf(params).toEqualTypeOf<{ id: string }>();
        expectTypeOf(query).toEqualTypeOf<{ limit: number }>();
        expectTypeOf(body).toEqualTypeOf<undefined>();
        expectTypeOf(auth).toEqualTypeOf<AuthContext>();
        return { id: params.id, limit: query.limit };
      },
    });
    const { key } = await tenantWithKey(store);
    const id = crypto.randomUUID();
    const ok = await route.withRuntime(runtime)(request(`/test/${id}?limit=5`, { key }), {
      params: Promise.resolve({ id }),
    });
    expect(await ok.json()).toEqual({ id, limit: 5 });
    const bad = await route.withRuntime(runtime)(request('/test/nope?limit=50', { key }), {
      params: Promise.resolve({ id: 'nope' }),
    });
    expect(bad.status).toBe(400);
    expect((await errorBody(bad)).error.fields?.map((f) => f.path).sort()).toEqual(['query.limit']);
  });
});

describe('rate limits', () => {
  it('429 with Retry-After and X-RateLimit headers after 10 interact requests per minute', async () => {
    const { key } = await tenantWithKey(store);
    const body = { url: 'https://a.example', query: 'q' };
    for (let i = 0; i < 10; i++) {
      const res = await echo.withRuntime(runtime)(
        request('/test/echo', { method: 'POST', key, body }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('10');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(9 - i));
    }
    const limited = await echo.withRuntime(runtime)(
      request('/test/echo', { method: 'POST', key, body }),
    );
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect((await errorBody(limited)).error.code).toBe('RATE_LIMITED');
  });

  it('limits per tenant: one tenant at its limit does not block another', async () => {
    const a = await tenantWithKey(store);
    const b = await tenantWithKey(store);
    const body = { url: 'https://a.example', query: 'q' };
    for (let i = 0; i < 11; i++) {
      await echo.withRuntime(runtime)(request('/test/echo', { method: 'POST', key: a.key, body }));
    }
    const other = await echo.withRuntime(runtime)(
      request('/test/echo', { method: 'POST', key: b.key, body }),
    );
    expect(other.status).toBe(200);
  });

  it('the limit is configurable', async () => {
    const tight = await testRuntime({ RATE_LIMIT_INTERACT_PER_MIN: '2' }, store);
    const { key } = await tenantWithKey(store);
    const body = { url: 'https://a.example', query: 'q' };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await echo.withRuntime(tight)(request('/test/echo', { method: 'POST', key, body })))
          .status,
      );
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('keeps limiting through the in-memory insurance limiter when the store fails', async () => {
    const failing: Store = {
      ...store,
      rateLimits: {
        increment: () => Promise.reject(new Error('store down')),
        get: () => Promise.reject(new Error('store down')),
        delete: () => Promise.reject(new Error('store down')),
      },
    } as Store;
    const insured = await testRuntime({ RATE_LIMIT_INTERACT_PER_MIN: '3' }, failing);
    const { key } = await tenantWithKey(store);
    const body = { url: 'https://a.example', query: 'q' };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await echo.withRuntime(insured)(request('/test/echo', { method: 'POST', key, body })))
          .status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('error mapping', () => {
  it('maps unexpected errors to 500 INTERNAL_ERROR without internals', async () => {
    const boom = createRoute(openEndpoint('GET', '/test/boom', z.object({})), {
      handler: async () => {
        throw new Error('SQLITE_ERROR: no such table secret_stuff at /srv/app.js:10');
      },
    });
    const res = await boom.withRuntime(runtime)(request('/test/boom'));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'INTERNAL_ERROR', message: 'Internal server error.' },
    });
    expect(text).not.toMatch(/SQLITE|secret|\.js/);
  });

  it('never sends a response that breaks its contract', async () => {
    const liar = createRoute(openEndpoint('GET', '/test/liar', z.object({ count: z.number() })), {
      handler: async () => ({ count: 'three' }) as unknown as { count: number },
    });
    const res = await liar.withRuntime(runtime)(request('/test/liar'));
    expect(res.status).toBe(500);
    expect((await errorBody(res)).error.code).toBe('INTERNAL_ERROR');
  });

  it('lets handlers choose a status with withStatus', async () => {
    const created = createRoute(
      openEndpoint('POST', '/test/created', z.object({ id: z.string() })),
      {
        handler: async ({ auth }) => {
          expectTypeOf(auth).toEqualTypeOf<null>();
          return withStatus(201, { id: 'x' }, { location: '/test/x' });
        },
      },
    );
    const res = await created.withRuntime(runtime)(request('/test/created', { method: 'POST' }));
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/test/x');
  });
});
