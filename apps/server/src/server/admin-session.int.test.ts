// The admin sign-in handlers against a real store: the key ends up only in an httpOnly,
// SameSite=Strict cookie scoped to /admin; unknown keys, cross-site forms and open redirects
// are refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenantWithKey, testRuntime } from '../test/harness';
import { PEER_HEADER } from './client-address';
import { ADMIN_COOKIE, handleAdminLogin, handleAdminLogout, safeAdminPath } from './admin-session';
import type { Runtime } from './runtime';

let runtime: Runtime;
beforeEach(async () => {
  runtime = await testRuntime();
});
afterEach(async () => {
  await runtime.close();
});

function loginRequest(
  fields: Record<string, string>,
  headers: Record<string, string> = { origin: 'http://127.0.0.1:3000' },
  url = 'http://127.0.0.1:3000/admin/session',
): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('POST /admin/session', () => {
  it('shares the per-address limit on failed authentications: past it, even a valid key waits', async () => {
    const { key } = await tenantWithKey(runtime.store, 'admin');
    const failures = { limiter: runtime.authFailures, trustProxyHops: 0 };
    const peer = { [PEER_HEADER]: '198.51.100.9' };
    const locations: (string | null)[] = [];
    for (let n = 0; n < 21; n++) {
      const res = await handleAdminLogin(
        runtime.store,
        loginRequest({ key: `wrong-${n}` }, peer),
        failures,
      );
      locations.push(res.headers.get('location'));
    }
    expect(locations.slice(0, 20).every((l) => l?.includes('error=invalid'))).toBe(true);
    expect(locations[20]).toContain('error=locked');
    const valid = await handleAdminLogin(runtime.store, loginRequest({ key }, peer), failures);
    expect(valid.headers.get('location')).toContain('error=locked');
    // Another address signs in.
    const other = await handleAdminLogin(
      runtime.store,
      loginRequest({ key }, { [PEER_HEADER]: '198.51.100.10' }),
      failures,
    );
    expect(other.headers.get('location')).toBe('/admin/billing');
  });

  it('keeps a known key in an httpOnly, strict, /admin-scoped cookie and redirects with 303', async () => {
    const { key } = await tenantWithKey(runtime.store, 'admin');
    const res = await handleAdminLogin(
      runtime.store,
      loginRequest({ key: ` ${key} `, next: '/admin/tasks?status=failed' }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/tasks?status=failed');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`${ADMIN_COOKIE}=${encodeURIComponent(key)}`);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/admin(;|$)/);
    expect(cookie).not.toMatch(/Secure/);
    // The key is never echoed anywhere else.
    expect(res.headers.get('location')).not.toContain(key);
  });

  it('marks the cookie Secure behind an https proxy', async () => {
    const { key } = await tenantWithKey(runtime.store, 'admin');
    const res = await handleAdminLogin(
      runtime.store,
      loginRequest(
        { key },
        {
          origin: 'https://admin.example',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'admin.example',
        },
      ),
    );
    expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
  });

  it('also keeps a user key: the pages then answer 403 "admin key required"', async () => {
    const { key } = await tenantWithKey(runtime.store, 'user');
    const res = await handleAdminLogin(runtime.store, loginRequest({ key }));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/billing');
    expect(res.headers.get('set-cookie')).toContain(ADMIN_COOKIE);
  });

  it('sends an unknown, revoked or missing key back to the form, with no cookie', async () => {
    const { tenantId, key, keyId } = await tenantWithKey(runtime.store, 'admin');
    await runtime.store.apiKeys.revoke(tenantId, keyId);
    for (const [fields, error] of [
      [{ key: 'tdm_nope' }, 'invalid'],
      [{ key }, 'invalid'],
      [{ key: '   ' }, 'missing'],
      [{}, 'missing'],
    ] as const) {
      const res = await handleAdminLogin(
        runtime.store,
        loginRequest({ ...fields, next: '/admin/tasks' }),
      );
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/admin/login?error=${error}&next=%2Fadmin%2Ftasks`);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('refuses a form posted from another site (login CSRF)', async () => {
    const { key } = await tenantWithKey(runtime.store, 'admin');
    for (const origin of ['https://evil.example', 'null']) {
      const res = await handleAdminLogin(runtime.store, loginRequest({ key }, { origin }));
      expect(res.status).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('never redirects outside the admin area', async () => {
    const { key } = await tenantWithKey(runtime.store, 'admin');
    for (const next of [
      'https://evil.example/admin',
      '//evil.example/admin',
      '/api/admin/billing',
      '/administrator',
      '/admin\\@evil',
    ]) {
      const res = await handleAdminLogin(runtime.store, loginRequest({ key, next }));
      expect(res.headers.get('location'), next).toBe('/admin/billing');
    }
    expect(safeAdminPath('/admin')).toBe('/admin');
    expect(safeAdminPath('/admin/tasks/abc')).toBe('/admin/tasks/abc');
    expect(safeAdminPath(undefined)).toBe('/admin/billing');
  });
});

describe('POST /admin/logout', () => {
  it('expires the cookie and goes to the sign-in form', () => {
    const res = handleAdminLogout(
      new Request('http://127.0.0.1:3000/admin/logout', { method: 'POST' }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/login');
    expect(res.headers.get('set-cookie')).toMatch(
      new RegExp(`^${ADMIN_COOKIE}=; Path=/admin; Max-Age=0; HttpOnly`),
    );
  });
});
