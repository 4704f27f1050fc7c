// Test runtime: a real in-memory libSQL store, a real runtime, and a tenant + key per test.
import { createLibsqlStore, type Store } from '@tandem/store';
import { readSse, type ApiKeyRole } from '@tandem/contracts';
import { expect } from 'vitest';
import { parseEnv } from '../env';
import { createRuntime, type Runtime } from '../server/runtime';

export async function testRuntime(
  overrides: Record<string, string> = {},
  store?: Store,
): Promise<Runtime> {
  const env = parseEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent',
    ...overrides,
  });
  return createRuntime({ env, store: store ?? (await createLibsqlStore({ url: ':memory:' })) });
}

export async function tenantWithKey(
  store: Store,
  role: ApiKeyRole = 'user',
): Promise<{ tenantId: string; key: string; keyId: string }> {
  const tenant = await store.tenants.create({ name: `t-${Math.random().toString(36).slice(2)}` });
  const { record, plaintextKey } = await store.apiKeys.create(tenant.id, {
    userId: 'user-1',
    name: 'test',
    role,
  });
  return { tenantId: tenant.id, key: plaintextKey, keyId: record.id };
}

export function request(
  path: string,
  init: {
    method?: string;
    key?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Request {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  }
  return new Request(`http://127.0.0.1:3000${path}`, {
    method: init.method ?? 'GET',
    headers,
    body,
  });
}

/**
 * An event-stream answer as its messages, through the SSE reader the clients use: each data
 * parsed as JSON, with the last id seen (as an EventSource reports it; '' before any).
 */
export async function sseMessages(res: Response): Promise<{ id: string; data: unknown }[]> {
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const out: { id: string; data: unknown }[] = [];
  if (!res.body) return out;
  for await (const message of readSse(res.body))
    out.push({ id: message.id ?? '', data: JSON.parse(message.data) as unknown });
  return out;
}
