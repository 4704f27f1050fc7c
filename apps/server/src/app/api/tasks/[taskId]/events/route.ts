import { endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../../../server/create-route';
import { lastEventSeq, SSE_HEADERS } from '../../../../../server/sse';
import { taskEventStream } from '../../_lib/event-stream';
import { requireTask } from '../../_lib/task-access';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Live progress of a task (docs/specs.md, "Collection Events"): steps, collected items, done.
export const GET = createRoute(endpoints.taskEvents, {
  handler: async ({ params, query, auth, runtime, request, log }) => {
    const task = await requireTask(runtime, auth.tenantId, params.taskId);
    const resumeFrom = lastEventSeq(request);
    const stream = taskEventStream({
      store: runtime.store,
      hub: runtime.events,
      tenantId: auth.tenantId,
      taskId: task.id,
      afterSeq: Math.max(query.afterSeq ?? 0, resumeFrom ?? 0),
      replaySteps: resumeFrom === undefined && query.afterSeq === undefined,
      signal: request.signal,
      log,
    });
    return rawResponse(new Response(stream, { headers: SSE_HEADERS }));
  },
});
