// A route whose runtime did not start (the store could not be opened) answers 503 with the
// contract's SERVICE_UNAVAILABLE code, before any auth or validation.
import { defineEndpoint, ErrorResponse } from '@tandem/contracts';
import { afterEach, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createRoute } from './create-route';

vi.mock('./runtime', () => ({
  getRuntime: () => Promise.reject(new Error('SQLITE_CANTOPEN: /srv/data/tandem.db')),
}));

afterEach(() => {
  vi.restoreAllMocks();
});

it('answers 503 SERVICE_UNAVAILABLE when the runtime failed to start, without internals', async () => {
  const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
  const endpoint = defineEndpoint({
    path: '/test/ready',
    method: 'GET',
    auth: 'apiKey',
    summary: 'test',
    response: z.object({}),
    errors: [],
  });
  const route = createRoute(endpoint, { handler: async () => ({}) });
  const res = await route(new Request('http://127.0.0.1/test/ready'), {
    params: Promise.resolve({}),
  });
  expect(res.status).toBe(503);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const text = await res.text();
  expect(ErrorResponse.parse(JSON.parse(text))).toEqual({
    error: {
      code: 'SERVICE_UNAVAILABLE',
      message: 'Server is not ready: the store could not be opened.',
    },
  });
  expect(text).not.toMatch(/SQLITE|srv/);
  expect(stderr).toHaveBeenCalledOnce();
});
