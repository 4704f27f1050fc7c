import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';
import { documentView, usageView } from '../_lib/views';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = createRoute(endpoints.knowledgeDocuments, {
  handler: async ({ query, runtime, auth }) => {
    const { knowledge } = runtime.store;
    const [documents, counts, usage] = await Promise.all([
      knowledge.listDocuments(
        auth.tenantId,
        query.domain !== undefined ? { domain: query.domain } : {},
      ),
      knowledge.countChunks(auth.tenantId),
      knowledge.usage(auth.tenantId),
    ]);
    return {
      // Newest first: what was just added is what the user looks for.
      documents: documents.reverse().map((d) => documentView(d, counts)),
      usage: usageView(usage, runtime.knowledge.quotas),
    };
  },
});
