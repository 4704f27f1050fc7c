// The admin pages' form posts (knowledge, routines): the same checks as the pages themselves
// (the admin cookie's key, role admin) plus the sign-in form's same-origin rule. Either the
// caller's auth, or the response that refuses the post (a 403/401 in words, or the way to
// sign in again and come back to `page`).
import { ADMIN_COOKIE } from './admin-session';
import { authenticate, type AuthContext } from './auth';
import { HttpError } from './http-error';
import { readCookie, sameOrigin, seeOther } from './key-session';
import type { Runtime } from './runtime';

export const refuseForm = (status: 401 | 403, message: string): Response =>
  new Response(message, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });

/** A form field's text, or undefined when it is missing or a file. */
export const formText = (form: FormData, name: string): string | undefined => {
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
};

export async function adminFormAuth(
  runtime: Runtime,
  request: Request,
  page: string,
): Promise<AuthContext | Response> {
  if (!sameOrigin(request)) return refuseForm(403, 'Cross-site form refused.');
  const key = readCookie(request, ADMIN_COOKIE);
  if (!key) return seeOther(`/admin/login?${new URLSearchParams({ next: page }).toString()}`);
  try {
    // The page's own check (requireAdminPage): the cookie's key as an admin Bearer key.
    return await authenticate(
      new Request('http://admin.local/', { headers: { authorization: `Bearer ${key}` } }),
      runtime.store,
      'admin',
    );
  } catch (error) {
    const code = error instanceof HttpError ? error.code : null;
    if (code === 'UNAUTHORIZED') return refuseForm(401, 'Sign in again: this key is not valid.');
    if (code === 'FORBIDDEN') return refuseForm(403, 'An admin API key is required.');
    throw error;
  }
}
