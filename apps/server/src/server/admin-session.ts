// Admin pages sign in with an API key entered once: the login handler keeps it in an httpOnly,
// SameSite=Strict cookie scoped to /admin, so it is never in a URL, in page HTML or readable by
// scripts. Every page checks it again (a revoked key stops working at the next page view).
import type { Store } from '@tandem/store';
import {
  checkPostedKey,
  crossSiteRefused,
  keyCookie,
  sameOrigin,
  seeOther,
  type SignInFailures,
} from './key-session';

export const ADMIN_COOKIE = 'tandem_admin_key';
export const ADMIN_HOME = '/admin/billing';
const COOKIE = { name: ADMIN_COOKIE, path: '/admin' };

/** Where to go after signing in: only a path inside the admin area (no open redirect). */
export function safeAdminPath(next: unknown): string {
  if (typeof next !== 'string') return ADMIN_HOME;
  if (!/^\/admin(\/|$|\?)/.test(next) || next.startsWith('//') || next.includes('\\')) {
    return ADMIN_HOME;
  }
  return next;
}

/**
 * POST /admin/session (form: key, next). An unknown key goes back to the form with an error;
 * a known key is kept whatever its role, and a user key then meets the pages' 403.
 */
export async function handleAdminLogin(
  store: Store,
  request: Request,
  failures?: SignInFailures,
): Promise<Response> {
  if (!sameOrigin(request)) return crossSiteRefused();
  const form = await request.formData().catch(() => null);
  const next = safeAdminPath(form?.get('next'));
  const posted = await checkPostedKey(store, request, form, failures);
  if ('error' in posted)
    return seeOther(
      `/admin/login?${new URLSearchParams({ error: posted.error, next }).toString()}`,
    );
  return seeOther(next, keyCookie(COOKIE, request, posted.key));
}

/** POST /admin/logout: forgets the key. */
export function handleAdminLogout(request: Request): Response {
  return seeOther('/admin/login', keyCookie(COOKIE, request, '', 0));
}
