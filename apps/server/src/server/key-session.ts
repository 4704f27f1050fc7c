// Signing a browser in with an API key, shared by the admin pages (admin-session.ts) and the
// /extractions page (user-session.ts): the key posted once by a form of this origin, checked
// against the store and the per-address limit on failed authentications (the same limit the
// API's Bearer keys count against), then kept in an httpOnly, SameSite=Strict cookie scoped to
// the pages that use it, so it is never in a URL, in page HTML or readable by scripts.
import type { Store } from '@tandem/store';
import { clientAddress } from './client-address';
import type { AuthFailureLimiter } from './rate-limit';

/** How long a signed-in browser keeps its key. */
export const KEY_COOKIE_MAX_AGE_S = 8 * 60 * 60;

export interface KeyCookie {
  name: string;
  /** The pages (and their routes) that read it; no other path ever receives it. */
  path: string;
}

/** The API's limit on failed authentications per client address, which sign-in forms share. */
export interface SignInFailures {
  limiter: AuthFailureLimiter;
  trustProxyHops: number;
}

function isHttps(request: Request): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return (forwarded ?? new URL(request.url).protocol.replace(':', '')) === 'https';
}

/** The Set-Cookie value keeping `value` (empty with maxAge 0: forgetting it). */
export function keyCookie(
  cookie: KeyCookie,
  request: Request,
  value: string,
  maxAge = KEY_COOKIE_MAX_AGE_S,
): string {
  return [
    `${cookie.name}=${encodeURIComponent(value)}`,
    `Path=${cookie.path}`,
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(isHttps(request) ? ['Secure'] : []),
  ].join('; ');
}

/** 303 so the browser follows with a GET (a reload never re-posts the key). */
export function seeOther(location: string, setCookie?: string): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  if (setCookie) headers.append('set-cookie', setCookie);
  return new Response(null, { status: 303, headers });
}

/**
 * A cross-site form must not sign a browser in with someone else's key (login CSRF), nor act
 * with the signed-in cookie (the knowledge admin's forms, the extraction page's writes): when
 * the browser says where the form came from, it has to be this origin.
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

export const crossSiteRefused = (): Response =>
  new Response('Cross-site sign-in refused.', { status: 403 });

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

export type PostedKey = { key: string } | { error: 'locked' | 'missing' | 'invalid' };

/**
 * The key a sign-in form posted, if the store knows it (any role: the pages check roles
 * themselves). A blocked address is refused before the key is looked up, valid keys included,
 * and an unknown key counts as a failed authentication of its address.
 */
export async function checkPostedKey(
  store: Store,
  request: Request,
  form: FormData | null,
  failures?: SignInFailures,
): Promise<PostedKey> {
  const key = form?.get('key');
  const address = failures ? clientAddress(request.headers, failures.trustProxyHops) : null;
  if (failures && address && (await failures.limiter.blocked(address))) return { error: 'locked' };
  if (typeof key !== 'string' || key.trim() === '') return { error: 'missing' };
  const record = await store.apiKeys.findByPlaintext(key.trim());
  if (!record) {
    if (failures && address) await failures.limiter.fail(address);
    return { error: 'invalid' };
  }
  return { key: key.trim() };
}
