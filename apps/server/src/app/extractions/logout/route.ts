import { handleUserLogout } from '../../../server/user-session';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function POST(request: Request): Response {
  return handleUserLogout(request);
}
