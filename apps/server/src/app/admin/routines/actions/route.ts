import { getRuntime } from '../../../../server/runtime';
import { handleRoutineAction } from './routine-actions';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The routines admin pages' forms (rename, enable, disable, delete).
export async function POST(request: Request): Promise<Response> {
  return handleRoutineAction(await getRuntime(), request);
}
