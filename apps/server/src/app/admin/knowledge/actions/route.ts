import { getRuntime } from '../../../../server/runtime';
import { handleKnowledgeAction } from './knowledge-actions';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The knowledge admin page's forms (index a site, cancel, re-index, delete, allowed domains).
export async function POST(request: Request): Promise<Response> {
  return handleKnowledgeAction(await getRuntime(), request);
}
