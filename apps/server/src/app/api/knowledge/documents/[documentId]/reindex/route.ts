import { endpoints } from '@tandem/contracts';
import { createRoute, withStatus } from '../../../../../../server/create-route';
import { HttpError } from '../../../../../../server/http-error';
import { jobView } from '../../../../../../server/knowledge-jobs';
import { knowledgeErrors } from '../../../_lib/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// A crawled or page document is fetched again as a one-page crawl into the same domain.
export const POST = createRoute(endpoints.knowledgeReindexDocument, {
  spendsTokens: true,
  handler: async ({ params, runtime, auth }) => {
    const document = await runtime.store.knowledge.getDocument(auth.tenantId, params.documentId);
    if (!document) throw new HttpError('NOT_FOUND', 'No such knowledge document.');
    if (!document.sourceUrl || !/^https?:\/\//.test(document.sourceUrl)) {
      throw new HttpError(
        'BAD_REQUEST',
        'This document was uploaded: upload the file again to update it.',
      );
    }
    const job = await knowledgeErrors(() =>
      runtime.knowledge.jobs.start(auth.tenantId, auth.userId, {
        url: document.sourceUrl ?? '',
        strategy: 'single',
        maxPages: 1,
        maxDepth: 0,
        domain: document.domain,
      }),
    );
    return withStatus(202, { job: jobView(job) });
  },
});
