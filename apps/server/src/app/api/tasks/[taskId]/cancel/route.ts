import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The extension's Stop: the task is cancelled for good (tenant-scoped: another tenant's task
// is a 404 like a missing one).
export const POST = createRoute(endpoints.cancelTask, {
  handler: ({ params, auth, runtime }) => runtime.agent.cancel(auth, params.taskId),
});
