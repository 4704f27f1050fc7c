// Bearer API-key authentication: the key is looked up by its hash, never stored or logged.
import type { ApiKeyRole } from '@tandem/contracts';
import type { Store } from '@tandem/store';
import { HttpError } from './http-error';

export interface AuthContext {
  tenantId: string;
  userId: string;
  keyId: string;
  role: ApiKeyRole;
}

export type AuthMode = 'none' | 'apiKey' | 'admin';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

// lastUsedAt is informational; writing it on every request would double the writes.
const TOUCH_INTERVAL_MS = 60_000;
const lastTouched = new Map<string, number>();

export async function authenticate(
  request: Request,
  store: Store,
  mode: Exclude<AuthMode, 'none'>,
  now = Date.now(),
): Promise<AuthContext> {
  const header = request.headers.get('authorization');
  if (!header) {
    throw new HttpError('UNAUTHORIZED', 'Missing API key: send "Authorization: Bearer <key>".', {
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
  }
  const match = BEARER.exec(header);
  const key = match?.[1];
  const record = key ? await store.apiKeys.findByPlaintext(key) : null;
  if (!record) {
    throw new HttpError('UNAUTHORIZED', 'Invalid API key.', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
  }
  if (mode === 'admin' && record.role !== 'admin') {
    throw new HttpError('FORBIDDEN', 'This endpoint needs an admin API key.');
  }
  if (now - (lastTouched.get(record.id) ?? 0) > TOUCH_INTERVAL_MS) {
    lastTouched.set(record.id, now);
    // Fire and forget: a failed touch must not fail the request.
    void store.apiKeys
      .touch(record.tenantId, record.id, new Date(now).toISOString())
      .catch(() => {});
  }
  return { tenantId: record.tenantId, userId: record.userId, keyId: record.id, role: record.role };
}
