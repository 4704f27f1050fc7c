import { CollectedItemsQuery, TaskParams } from '@tandem/contracts';
import { collectedItems } from '../../_lib/collected';
import { createRawRoute } from '../../_lib/raw-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Spec 000's `result.collected`, over HTTP: JSON pages for programs, CSV for people.
export const GET = createRawRoute({
  name: 'GET /api/tasks/:taskId/collected',
  params: TaskParams,
  query: CollectedItemsQuery,
  handler: collectedItems,
});
