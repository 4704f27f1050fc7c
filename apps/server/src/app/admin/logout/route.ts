import { handleAdminLogout } from '../../../server/admin-session';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function POST(request: Request): Response {
  return handleAdminLogout(request);
}
