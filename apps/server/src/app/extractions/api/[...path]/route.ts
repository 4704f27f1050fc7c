import { pageProxy } from '../../_lib/page-proxy';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The page's calls, forwarded to the /api routes with the key of the sign-in cookie.
export const GET = pageProxy();
export const POST = pageProxy();
