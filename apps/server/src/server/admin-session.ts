// Admin pages sign in with an API key entered once: the login handler keeps it in an httpOnly,
// SameSite=Strict cookie scoped to /admin, so it is never in a URL, in page HTML or readable by
// scripts. Every page checks it again (a revoked key stops working at the next page view).
import type { Store } from '@tandem/store';
import { clientAddress } from './client-address';
import type { AuthFailureLimiter } from './rate-limit';

export const ADMIN_COOKIE = 'tandem_admin_key';
export const ADMIN_HOME = '/admin/billing';
const COOKIE_PATH = '/admin';
const COOKIE_MAX_AGE_S = 8 * 60 * 60;

/** Where to go after signing in: only a path inside the admin area (no open redirect). */
export function safeAdminPath(next: unknown): string {
  if (typeof next !== 'string') return ADMIN_HOME;
  if (!/^\/admin(\/|$|\?)/.test(next) || next.startsWith('//') || next.includes('\\')) {
    return ADMIN_HOME;
  }
  return next;
}

function isHttps(request: Request): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return (forwarded ?? new URL(request.url).protocol.replace(':', '')) === 'https';
}

function cookie(request: Request, value: string, maxAge: number): string {
  return [
    `${ADMIN_COOKIE}=${encodeURIComponent(value)}`,
    `Path=${COOKIE_PATH}`,
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(isHttps(request) ? ['Secure'] : []),
  ].join('; ');
}

/** 303 so the browser follows with a GET (a reload never re-posts the key). */
function seeOther(location: string, setCookie?: string): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  if (setCookie) headers.append('set-cookie', setCookie);
  return new Response(null, { status: 303, headers });
}

/**
 * A cross-site form must not sign a browser in with someone else's key (login CSRF), nor act
 * with the admin's cookie (the knowledge admin's forms): when the browser says where the form
 * came from, it has to be this origin.
 */
export function sameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (origin === null) return true;
  // Sandboxed frames and some redirects send the literal "null": nothing to trust there.
  if (origin === 'null') return false;
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  try {
    return new URL(origin).host === (host ?? new URL(request.url).host);
  } catch {
    return false;
  }
}

/**
 * POST /admin/session (form: key, next). An unknown key goes back to the form with an error;
 * a known key is kept whatever its role, and a user key then meets the pages' 403.
 */
export async function handleAdminLogin(
  store: Store,
  request: Request,
  /** The API's limit on failed authentications per client address, shared with the form. */
  failures?: { limiter: AuthFailureLimiter; trustProxyHops: number },
): Promise<Response> {
  if (!sameOrigin(request)) {
    return new Response('Cross-site sign-in refused.', { status: 403 });
  }
  const form = await request.formData().catch(() => null);
  const key = form?.get('key');
  const next = safeAdminPath(form?.get('next'));
  const back = (error: string) =>
    seeOther(`/admin/login?${new URLSearchParams({ error, next }).toString()}`);
  const address = failures ? clientAddress(request.headers, failures.trustProxyHops) : null;
  if (failures && address && (await failures.limiter.blocked(address))) return back('locked');
  if (typeof key !== 'string' || key.trim() === '') return back('missing');
  const record = await store.apiKeys.findByPlaintext(key.trim());
  if (!record) {
    if (failures && address) await failures.limiter.fail(address);
    return back('invalid');
  }
  return seeOther(next, cookie(request, key.trim(), COOKIE_MAX_AGE_S));
}

/** POST /admin/logout: forgets the key. */
export function handleAdminLogout(request: Request): Response {
  return seeOther('/admin/login', cookie(request, '', 0));
}
