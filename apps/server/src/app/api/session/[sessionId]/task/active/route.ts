import { findActiveTask } from '@tandem/agent';
import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../../../server/create-route';
import { HttpError } from '../../../../../../server/http-error';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Task recovery for a client that lost its taskId; expires zombie tasks lazily.
export const GET = createRoute(endpoints.activeTask, {
  handler: async ({ params, query, auth, runtime }) => {
    const task = await findActiveTask(runtime.store, {
      tenantId: auth.tenantId,
      sessionId: params.sessionId,
      ...(query.url ? { url: query.url } : {}),
    });
    if (!task) throw new HttpError('NOT_FOUND', 'No active task for this session.');
    return task;
  },
});
