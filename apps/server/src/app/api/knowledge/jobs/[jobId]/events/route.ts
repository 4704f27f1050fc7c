import { endpoints } from '@tandem/contracts';
import { createRoute, rawResponse } from '../../../../../../server/create-route';
import { SSE_HEADERS } from '../../../../../../server/sse';
import { requireJob } from '../../../_lib/job-access';
import { jobEventStream } from '../../../_lib/job-stream';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = createRoute(endpoints.knowledgeJobEvents, {
  handler: async ({ params, runtime, auth, request }) => {
    const job = await requireJob(runtime, auth.tenantId, params.jobId);
    const stream = jobEventStream({
      job,
      runner: runtime.knowledge.jobs,
      reload: () => runtime.store.knowledgeJobs.get(auth.tenantId, job.id),
      signal: request.signal,
    });
    return rawResponse(new Response(stream, { headers: SSE_HEADERS }));
  },
});
