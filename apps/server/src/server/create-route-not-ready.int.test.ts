// A route whose runtime did not start answers 503 with the contract's SERVICE_UNAVAILABLE code,
// before any auth or validation, and the terminal gets the reason: the store that could not be
// opened, or the variable, its rule and the fix (never its value). `next start` exits on a
// failed start (instrumentation-node.ts); this is what `next dev` keeps answering.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineEndpoint, ErrorResponse } from '@tandem/contracts';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { z } from 'zod';
import { parseEnv } from '../env';
import { createRoute } from './create-route';
import { createRuntime } from './runtime';

const endpoint = defineEndpoint({
  path: '/test/ready',
  method: 'GET',
  auth: 'apiKey',
  summary: 'test',
  response: z.object({}),
  errors: [],
});
const route = createRoute(endpoint, { handler: async () => ({}) });
const call = (load: () => ReturnType<typeof createRuntime>) =>
  route.withRuntimeLoader(load)(new Request('http://127.0.0.1/test/ready'), {
    params: Promise.resolve({}),
  });

let dir: string;
let stderr: MockInstance<typeof console.error>;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tandem-not-ready-'));
  stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});
const logged = () => stderr.mock.calls.map((args) => args.join(' ')).join('\n');

describe('a route whose runtime failed to start', () => {
  it('answers 503 when the store cannot be opened, without internals', async () => {
    // DATA_DIR is a file: the embedded store cannot create its database under it.
    const file = path.join(dir, 'not-a-directory');
    writeFileSync(file, '');
    const res = await call(() =>
      createRuntime({ env: parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: file }) }),
    );
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
    expect(text).not.toContain(dir);
    expect(logged()).toContain('the store could not be opened');
  });

  it('answers 503 naming the configuration, and logs the variable without its value', async () => {
    const res = await call(async () =>
      createRuntime({ env: parseEnv({ TANDEM_DEV_API_KEY: 'short-SECRET' }) }),
    );
    expect(res.status).toBe(503);
    expect(ErrorResponse.parse(await res.json()).error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message:
        'Server is not ready: its configuration is invalid (the server log says which variable).',
    });
    expect(logged()).toContain('TANDEM_DEV_API_KEY: must be at least 20 characters');
    expect(logged()).not.toContain('short-SECRET');
  });
});
