import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../../server/create-route';
import { jobView } from '../../../../../server/knowledge-jobs';
import { requireJob } from '../../_lib/job-access';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = createRoute(endpoints.knowledgeJob, {
  handler: async ({ params, runtime, auth }) => ({
    job: jobView(await requireJob(runtime, auth.tenantId, params.jobId)),
  }),
});
