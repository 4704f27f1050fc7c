import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../../../server/create-route';
import { jobView } from '../../../../../../server/knowledge-jobs';
import { requireJob } from '../../../_lib/job-access';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Cancelling a finished job answers it as it is, so a client may retry safely.
export const POST = createRoute(endpoints.knowledgeCancelJob, {
  handler: async ({ params, runtime, auth }) => {
    await requireJob(runtime, auth.tenantId, params.jobId);
    const job = await runtime.knowledge.jobs.cancel(auth.tenantId, params.jobId);
    return { job: jobView(job ?? (await requireJob(runtime, auth.tenantId, params.jobId))) };
  },
});
