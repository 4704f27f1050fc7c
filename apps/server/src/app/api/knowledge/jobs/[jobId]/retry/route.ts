import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../../../server/create-route';
import { HttpError } from '../../../../../../server/http-error';
import { jobView } from '../../../../../../server/knowledge-jobs';
import { requireJob } from '../../../_lib/job-access';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = createRoute(endpoints.knowledgeRetryJob, {
  handler: async ({ params, runtime, auth }) => {
    const job = await requireJob(runtime, auth.tenantId, params.jobId);
    const queued = await runtime.knowledge.jobs.retry(auth.tenantId, params.jobId);
    if (!queued) {
      throw new HttpError(
        'CONFLICT',
        job.status === 'failed'
          ? `The crawl of ${job.url} cannot be retried: ${job.error ?? 'it did not fail in the queue'}. Index the site again instead.`
          : `The crawl of ${job.url} is ${job.status}, not failed: there is nothing to retry.`,
      );
    }
    return { job: jobView(queued) };
  },
});
