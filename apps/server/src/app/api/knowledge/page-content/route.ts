import { endpoints, KNOWLEDGE_LIMITS } from '@tandem/contracts';
import { ingestPageContent } from '@tandem/knowledge/ingestion';
import { createRoute } from '../../../../server/create-route';
import { knowledgeErrors } from '../_lib/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Two-phase SPA ingestion: the extension sends page content for sites the user consented to.
export const POST = createRoute(endpoints.knowledgePageContent, {
  spendsTokens: true,
  // The HTML plus its JSON envelope.
  maxBodyBytes: KNOWLEDGE_LIMITS.pageContentBytes + 64 * 1024,
  handler: ({ body, runtime, auth }) =>
    knowledgeErrors(() =>
      ingestPageContent(
        runtime.knowledge.ingestion,
        { knowledge: runtime.store.knowledge },
        { ...body, tenantId: auth.tenantId },
      ),
    ),
});
