import { WhoAmIResponse } from '@tandem/contracts';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  callServer,
  httpError,
  networkError,
  parseRetryAfter,
  requestInit,
} from './api-call';

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
    expect(error.retryAfterMs).toBe(30_000);
  });

  it('has no wait of its own without Retry-After', () => {
    const error = httpError(429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, null);
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('is HTTP_ERROR with the status when the body is not an ErrorResponse', () => {
    expect(httpError(502, '<html>Bad gateway</html>', null)).toMatchObject({
      status: 502,
      code: 'HTTP_ERROR',
      message: 'Server answered 502',
    });
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds as milliseconds', () => {
    expect(parseRetryAfter('7')).toBe(7_000);
    expect(parseRetryAfter(' 0 ')).toBe(0);
    expect(parseRetryAfter('1.5')).toBe(1_500);
  });

  it('reads an HTTP date as the time left until then, never negative', () => {
    const now = Date.parse('Tue, 24 Nov 2026 20:00:00 GMT');
    expect(parseRetryAfter('Tue, 24 Nov 2026 20:00:12 GMT', now)).toBe(12_000);
    expect(parseRetryAfter('Tue, 24 Nov 2026 19:59:00 GMT', now)).toBe(0);
  });

  it('is undefined when absent or unreadable, so the caller backs off on its own', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-3')).toBeUndefined();
  });
});

describe('ApiError.retryable', () => {
  const error = (status: number, code: string, message = 'm') =>
    new ApiError(status, code, message);

  it('retries an unreachable server, a rate limit and server failures', () => {
    expect(error(0, 'NETWORK').retryable).toBe(true);
    expect(error(429, 'RATE_LIMITED').retryable).toBe(true);
    expect(error(500, 'INTERNAL_ERROR').retryable).toBe(true);
    expect(error(502, 'HTTP_ERROR').retryable).toBe(true);
    expect(error(503, 'SERVICE_UNAVAILABLE').retryable).toBe(true);
  });

  it('retries a task still busy with our earlier request, or a key still in progress', () => {
    expect(error(409, 'TASK_BUSY').retryable).toBe(true);
    const inProgress = error(
      409,
      'CONFLICT',
      'A request with this idempotencyKey is still in progress.',
    );
    expect(inProgress.keyConflict).toBe('in_progress');
    expect(inProgress.retryable).toBe(true);
  });

  it('does not retry what no wait fixes', () => {
    expect(error(503, 'LLM_NOT_CONFIGURED').retryable).toBe(false);
    expect(error(422, 'LLM_REFUSED').retryable).toBe(false);
    expect(error(0, 'ABORTED').retryable).toBe(false);
    expect(error(200, 'BAD_RESPONSE').retryable).toBe(false);
    expect(error(401, 'UNAUTHORIZED').retryable).toBe(false);
    expect(error(409, 'TASK_CANCELLED').retryable).toBe(false);
    expect(error(409, 'CONFLICT', 'The task is waiting for an answer.').retryable).toBe(false);
    const reused = error(
      409,
      'CONFLICT',
      'idempotencyKey was already used for a different request.',
    );
    expect(reused.keyConflict).toBe('different_request');
    expect(reused.retryable).toBe(false);
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

  it('passes the signal on, and throws ABORTED (not retryable) once it aborted', async () => {
    const controller = new AbortController();
    const calls: (RequestInit | undefined)[] = [];
    const fetchFn: typeof fetch = async (_input, init) => {
      calls.push(init);
      controller.abort();
      throw new DOMException('This operation was aborted', 'AbortError');
    };
    const call = callServer(settings, fetchFn, {
      method: 'GET',
      path: '/x',
      schema: WhoAmIResponse,
      signal: controller.signal,
    });
    await expect(call).rejects.toMatchObject({ status: 0, code: 'ABORTED', retryable: false });
    expect(calls[0]?.signal).toBe(controller.signal);
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
