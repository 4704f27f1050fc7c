import { handleAdminLogin } from '../../../server/admin-session';
import { getRuntime } from '../../../server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The admin sign-in form posts here; the key goes into an httpOnly cookie.
export async function POST(request: Request): Promise<Response> {
  const { store, authFailures, env } = await getRuntime();
  return handleAdminLogin(store, request, {
    limiter: authFailures,
    trustProxyHops: env.TRUST_PROXY_HOPS,
  });
}
