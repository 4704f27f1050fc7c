import { findActiveTask } from '@tandem/agent';
import { ActiveTaskParams, ActiveTaskQuery, ActiveTaskResponse } from '@tandem/contracts';
import { createRoute } from '../../../../../../server/create-route';
import { HttpError } from '../../../../../../server/http-error';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Task recovery for a client that lost its taskId; expires zombie tasks lazily.
export const GET = createRoute({
  name: 'GET /api/session/:sessionId/task/active',
  auth: 'apiKey',
  params: ActiveTaskParams,
  query: ActiveTaskQuery,
  response: ActiveTaskResponse,
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
