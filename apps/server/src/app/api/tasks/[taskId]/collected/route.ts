import { CollectedItemsQuery, CollectedItemsResponse, TaskParams } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../../../server/create-route';
import { collectedItems } from '../../_lib/collected';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Spec 000's `result.collected`, over HTTP: JSON pages for programs, CSV for people.
export const GET = createRoute({
  name: 'GET /api/tasks/:taskId/collected',
  auth: 'apiKey',
  response: CollectedItemsResponse,
  params: TaskParams,
  query: CollectedItemsQuery,
  handler: async (ctx) => rawResponse(await collectedItems(ctx)),
});
