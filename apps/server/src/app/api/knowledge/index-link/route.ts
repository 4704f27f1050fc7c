import { endpoints } from '@tandem/contracts';
import { createRoute, withStatus } from '../../../../server/create-route';
import { jobView } from '../../../../server/knowledge-jobs';
import { knowledgeErrors } from '../_lib/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Start a crawl (single page, sitemap or spider); it runs in the background.
export const POST = createRoute(endpoints.knowledgeIndexLink, {
  spendsTokens: true,
  handler: async ({ body, runtime, auth }) => {
    const job = await knowledgeErrors(() =>
      runtime.knowledge.jobs.start(auth.tenantId, auth.userId, body),
    );
    return withStatus(202, { job: jobView(job) });
  },
});
