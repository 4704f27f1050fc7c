// The /extractions page signs in with an API key of any role, entered once: like the admin
// pages (admin-session.ts), the key is kept in an httpOnly, SameSite=Strict cookie, here scoped
// to /extractions, so scripts on the page never see it. The page's own routes turn the cookie
// back into the Bearer key of the /api routes they forward to.
import type { Store } from '@tandem/store';
import {
  checkPostedKey,
  crossSiteRefused,
  keyCookie,
  sameOrigin,
  seeOther,
  type SignInFailures,
} from './key-session';

export const USER_COOKIE = 'tandem_user_key';
export const EXTRACTIONS_PAGE = '/extractions';
const COOKIE = { name: USER_COOKIE, path: EXTRACTIONS_PAGE };

/**
 * POST /extractions/session (form: key): any known key signs in; an unknown one goes back. It
 * counts against the same per-address limit on failed authentications as the API and /admin.
 */
export async function handleUserLogin(
  store: Store,
  request: Request,
  failures?: SignInFailures,
): Promise<Response> {
  if (!sameOrigin(request)) return crossSiteRefused();
  const form = await request.formData().catch(() => null);
  const posted = await checkPostedKey(store, request, form, failures);
  if ('error' in posted) return seeOther(`${EXTRACTIONS_PAGE}?error=${posted.error}`);
  return seeOther(EXTRACTIONS_PAGE, keyCookie(COOKIE, request, posted.key));
}

export function handleUserLogout(request: Request): Response {
  return seeOther(EXTRACTIONS_PAGE, keyCookie(COOKIE, request, '', 0));
}
