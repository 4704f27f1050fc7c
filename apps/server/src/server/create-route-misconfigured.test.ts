// Under `next dev` (which keeps running on a failed start) a route whose runtime could not be
// built because of the environment says so, and the terminal gets the same message the start
// printed: the variable, its rule and the fix.
import { defineEndpoint, ErrorResponse } from '@tandem/contracts';
import { afterEach, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { parseEnv } from '../env';
import { createRoute } from './create-route';

vi.mock('./runtime', () => ({
  getRuntime: async () => parseEnv({ TANDEM_DEV_API_KEY: 'short-SECRET' }),
}));

afterEach(() => {
  vi.restoreAllMocks();
});

it('answers 503 naming the configuration, and logs the variable without its value', async () => {
  const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
  const endpoint = defineEndpoint({
    path: '/test/ready',
    method: 'GET',
    auth: 'none',
    summary: 'test',
    response: z.object({}),
    errors: [],
  });
  const route = createRoute(endpoint, { handler: async () => ({}) });
  const res = await route(new Request('http://127.0.0.1/test/ready'), {
    params: Promise.resolve({}),
  });
  expect(res.status).toBe(503);
  expect(ErrorResponse.parse(await res.json()).error).toEqual({
    code: 'SERVICE_UNAVAILABLE',
    message:
      'Server is not ready: its configuration is invalid (the server log says which variable).',
  });
  const logged = stderr.mock.calls.map((args) => args.join(' ')).join('\n');
  expect(logged).toContain('TANDEM_DEV_API_KEY: must be at least 20 characters');
  expect(logged).not.toContain('short-SECRET');
});
