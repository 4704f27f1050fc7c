import { endpoints } from '@tandem/contracts';
import { createRoute, withStatus } from '../../../server/create-route';
import { asUpload } from '../../../server/tenant-slots';
import { knowledgeErrors } from '../knowledge/_lib/errors';
import { caller } from './_lib/access';
import { multipartFile } from './_lib/upload';
import { documentView } from './_lib/views';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Upload a document for extraction (multipart; the route reads its own body, capped).
export const POST = createRoute(endpoints.documentsUpload, {
  handler: ({ request, runtime, auth }) =>
    asUpload(runtime, auth.tenantId, async () => {
      const file = await multipartFile(request);
      const document = await knowledgeErrors(() =>
        runtime.documents.uploadDocument(caller(auth), file),
      );
      return withStatus(201, { document: documentView(document) });
    }),
});

export const GET = createRoute(endpoints.documents, {
  handler: async ({ runtime, auth }) => ({
    documents: (await runtime.store.documents.list(auth.tenantId, { userId: auth.userId })).map(
      documentView,
    ),
  }),
});
