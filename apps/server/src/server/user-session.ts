// The /extractions page signs in with an API key of any role, entered once: like the admin
// pages (admin-session.ts), the key is kept in an httpOnly, SameSite=Strict cookie, here scoped
// to /extractions, so scripts on the page never see it. The page's own routes turn the cookie
// back into the Bearer key of the /api routes they forward to.
import type { Store } from '@tandem/store';
import { sameOrigin } from './admin-session';

export const USER_COOKIE = 'tandem_user_key';
export const EXTRACTIONS_PAGE = '/extractions';
const COOKIE_MAX_AGE_S = 8 * 60 * 60;

function isHttps(request: Request): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return (forwarded ?? new URL(request.url).protocol.replace(':', '')) === 'https';
}

function userCookie(request: Request, value: string, maxAge: number): string {
  return [
    `${USER_COOKIE}=${encodeURIComponent(value)}`,
    `Path=${EXTRACTIONS_PAGE}`,
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(isHttps(request) ? ['Secure'] : []),
  ].join('; ');
}

function seeOther(location: string, setCookie?: string): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  if (setCookie) headers.append('set-cookie', setCookie);
  return new Response(null, { status: 303, headers });
}

/** A cookie's value from a request's Cookie header, or null. */
export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    const value = rest.join('=');
    try {
      return decodeURIComponent(value) || null;
    } catch {
      return value || null;
    }
  }
  return null;
}

/** POST /extractions/session (form: key): any known key signs in; an unknown one goes back. */
export async function handleUserLogin(store: Store, request: Request): Promise<Response> {
  if (!sameOrigin(request)) return new Response('Cross-site sign-in refused.', { status: 403 });
  const form = await request.formData().catch(() => null);
  const key = form?.get('key');
  if (typeof key !== 'string' || key.trim() === '')
    return seeOther(`${EXTRACTIONS_PAGE}?error=missing`);
  const record = await store.apiKeys.findByPlaintext(key.trim());
  if (!record) return seeOther(`${EXTRACTIONS_PAGE}?error=invalid`);
  return seeOther(EXTRACTIONS_PAGE, userCookie(request, key.trim(), COOKIE_MAX_AGE_S));
}

export function handleUserLogout(request: Request): Response {
  return seeOther(EXTRACTIONS_PAGE, userCookie(request, '', 0));
}
