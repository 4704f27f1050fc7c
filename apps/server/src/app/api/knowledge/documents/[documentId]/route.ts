import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../../server/create-route';
import { HttpError } from '../../../../../server/http-error';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const DELETE = createRoute(endpoints.knowledgeDeleteDocument, {
  handler: async ({ params, runtime, auth }) => {
    const deleted = await runtime.store.knowledge.deleteDocument(auth.tenantId, params.documentId);
    if (!deleted) throw new HttpError('NOT_FOUND', 'No such knowledge document.');
    return { deleted: true as const };
  },
});
