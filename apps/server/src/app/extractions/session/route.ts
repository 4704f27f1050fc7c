import { getRuntime } from '../../../server/runtime';
import { handleUserLogin } from '../../../server/user-session';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The page's sign-in form posts here; the key goes into an httpOnly cookie.
export async function POST(request: Request): Promise<Response> {
  const { store, authFailures, env } = await getRuntime();
  return handleUserLogin(store, request, {
    limiter: authFailures,
    trustProxyHops: env.TRUST_PROXY_HOPS,
  });
}
