import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';
import { jobView } from '../../../../server/knowledge-jobs';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = createRoute(endpoints.knowledgeJobs, {
  handler: async ({ runtime, auth }) => {
    const jobs = await runtime.store.knowledgeJobs.list(auth.tenantId, { limit: 100 });
    return { jobs: jobs.map(jobView) };
  },
});
