// Auth for the server-rendered admin pages: the key from the admin cookie, checked like a
// Bearer key on an `admin` route. No cookie → the sign-in form; an unknown or revoked key →
// 401 page; a key without the admin role → 403 page.
import { cookies } from 'next/headers';
import { forbidden, redirect, unauthorized } from 'next/navigation';
import { createAdminService, type AdminService } from './admin-service';
import { authenticate, type AuthContext } from './auth';
import { HttpError } from './http-error';
import { getRuntime, type Runtime } from './runtime';
import { ADMIN_COOKIE } from './admin-session';

export interface AdminPageContext {
  auth: AuthContext;
  runtime: Runtime;
  admin: AdminService;
}

export async function requireAdminPage(returnTo: string): Promise<AdminPageContext> {
  const key = (await cookies()).get(ADMIN_COOKIE)?.value;
  if (!key) redirect(`/admin/login?${new URLSearchParams({ next: returnTo }).toString()}`);
  const runtime = await getRuntime();
  // The same check as the API's `admin` routes, so pages and API can never disagree.
  const request = new Request('http://admin.local/', {
    headers: { authorization: `Bearer ${key}` },
  });
  try {
    const auth = await authenticate(request, runtime.store, 'admin');
    return { auth, runtime, admin: createAdminService(runtime.store) };
  } catch (error) {
    const code = error instanceof HttpError ? error.code : null;
    if (code === 'FORBIDDEN') forbidden();
    if (code === 'UNAUTHORIZED') unauthorized();
    throw error;
  }
}
