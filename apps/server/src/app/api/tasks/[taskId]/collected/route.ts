import { endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../../../server/create-route';
import { collectedItems } from '../../_lib/collected';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// A task's collected items (docs/specs.md, "TaskResult.collected"), over HTTP: JSON pages for
// programs, CSV for people.
export const GET = createRoute(endpoints.collectedItems, {
  handler: async (ctx) => rawResponse(await collectedItems(ctx)),
});
