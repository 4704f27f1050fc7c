import { endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../../../server/create-route';
import { taskExtractions } from '../../_lib/extractions';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The structured-extraction results of a task (docs/specs.md, "extraction overhaul"): every page's
// result and each extraction merged across pages.
export const GET = createRoute(endpoints.taskExtractions, {
  handler: async (ctx) => rawResponse(await taskExtractions(ctx)),
});
