import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';
import { requireExtraction } from '../../documents/_lib/access';
import { documentView, extractionView, writeView } from '../../documents/_lib/views';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = createRoute(endpoints.extraction, {
  handler: async ({ params, runtime, auth }) => {
    const extraction = await requireExtraction(runtime, auth, params.extractionId);
    const [document, writes] = await Promise.all([
      runtime.store.documents.get(auth.tenantId, extraction.documentId, { userId: auth.userId }),
      runtime.store.documentExtractions.listWrites(auth.tenantId, extraction.id),
    ]);
    return {
      ...extractionView(extraction),
      document: document ? documentView(document) : null,
      history: writes.map(writeView),
    };
  },
});
