import { endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../../../server/create-route';
import { taskExtractions } from '../../_lib/extractions';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Spec 001's results of a task: every page's result and each extraction merged across pages.
export const GET = createRoute(endpoints.taskExtractions, {
  handler: async (ctx) => rawResponse(await taskExtractions(ctx)),
});
