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
    if (job.kind === 'upload') {
      const queued = await runtime.knowledge.uploads.retry(auth.tenantId, params.jobId);
      if (!queued) {
        const name = job.upload?.fileName ?? 'the file';
        throw new HttpError(
          'CONFLICT',
          job.status === 'failed'
            ? `The upload of ${name} cannot be retried: ${job.error ?? 'it failed'}${job.upload?.failureCode === 'QUOTA_EXCEEDED' ? '' : ' Upload the file again instead.'}`
            : `The upload of ${name} is ${job.status}, not failed: there is nothing to retry.`,
        );
      }
      return { job: jobView(queued) };
    }
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
