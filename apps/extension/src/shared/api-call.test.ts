import { WhoAmIResponse } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError, callServer, httpError, networkError, requestInit } from './api-call';

const settings = { serverUrl: 'http://tandem.test', apiKey: 'k-1' };
const whoami = { tenantId: 't', tenantName: 'T', userId: 'u', role: 'user', store: 'libsql' };

/** A fetch that answers every call with `answer` and records what it was asked. */
function fakeFetch(answer: () => Response) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    calls.push({ url: String(input), init });
    return answer();
  };
  return { fetchFn, calls };
}

const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers });

describe('requestInit', () => {
  it('sends only the key on a call without a body', () => {
    expect(requestInit('k-1', 'GET')).toEqual({
      method: 'GET',
      headers: { authorization: 'Bearer k-1' },
    });
  });

  it('sends a body as JSON, with its content type', () => {
    expect(requestInit('k-1', 'POST', { query: 'q' })).toEqual({
      method: 'POST',
      headers: { authorization: 'Bearer k-1', 'content-type': 'application/json' },
      body: '{"query":"q"}',
    });
  });
});

describe('httpError', () => {
  it("keeps the contract's code and message", () => {
    const error = httpError(409, { error: { code: 'TASK_BUSY', message: 'busy' } }, null);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'TASK_BUSY', message: 'busy' });
  });

  it('says how long to wait when the server sent Retry-After', () => {
    const error = httpError(429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, '30');
    expect(error.message).toBe('slow down (retry after 30 s)');
  });

  it('is HTTP_ERROR with the status when the body is not an ErrorResponse', () => {
    expect(httpError(502, '<html>Bad gateway</html>', null)).toMatchObject({
      status: 502,
      code: 'HTTP_ERROR',
      message: 'Server answered 502',
    });
  });
});

describe('networkError', () => {
  it('names the server that could not be reached and why', () => {
    expect(networkError('http://tandem.test', new TypeError('fetch failed'))).toMatchObject({
      status: 0,
      code: 'NETWORK',
      message: 'Cannot reach the Tandem server at http://tandem.test (fetch failed).',
    });
  });
});

describe('callServer', () => {
  it('calls serverUrl + path and returns the answer parsed by the contract', async () => {
    const { fetchFn, calls } = fakeFetch(json(whoami));
    const call = { method: 'GET', path: '/api/whoami', schema: WhoAmIResponse };
    expect(await callServer(settings, fetchFn, call)).toEqual(whoami);
    expect(calls).toEqual([
      { url: 'http://tandem.test/api/whoami', init: requestInit('k-1', 'GET') },
    ]);
  });

  it('throws NETWORK when the server cannot be reached', async () => {
    const fetchFn: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    const call = callServer(settings, fetchFn, {
      method: 'GET',
      path: '/x',
      schema: WhoAmIResponse,
    });
    await expect(call).rejects.toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it("throws the server's error on a refusal", async () => {
    const refusal = json({ error: { code: 'UNAUTHORIZED', message: 'bad key' } }, 401);
    const { fetchFn } = fakeFetch(refusal);
    const call = callServer(settings, fetchFn, {
      method: 'GET',
      path: '/x',
      schema: WhoAmIResponse,
    });
    await expect(call).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'bad key',
    });
  });

  it('throws BAD_RESPONSE when a 2xx answer does not match the contract', async () => {
    const { fetchFn } = fakeFetch(json({ tenantId: 't' }));
    const call = callServer(settings, fetchFn, {
      method: 'GET',
      path: '/x',
      schema: WhoAmIResponse,
    });
    await expect(call).rejects.toMatchObject({ status: 200, code: 'BAD_RESPONSE' });
  });

  it('treats a 2xx body that is not JSON as a bad response, not a crash', async () => {
    const { fetchFn } = fakeFetch(() => new Response('ok', { status: 200 }));
    const call = callServer(settings, fetchFn, {
      method: 'GET',
      path: '/x',
      schema: WhoAmIResponse,
    });
    await expect(call).rejects.toMatchObject({ status: 200, code: 'BAD_RESPONSE' });
  });
});
