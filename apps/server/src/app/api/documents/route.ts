import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../server/create-route';
import { asUpload } from '../../../server/tenant-slots';
import { uploadDocument } from './_lib/upload-job';
import { documentView } from './_lib/views';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Upload a document for extraction (multipart; the route reads its own body, capped), read by a
// job; the slot is held while the request waits for it, as before the job.
export const POST = createRoute(endpoints.documentsUpload, {
  handler: ({ request, runtime, auth }) =>
    asUpload(runtime, auth.tenantId, () => uploadDocument(request, runtime, auth)),
});

export const GET = createRoute(endpoints.documents, {
  handler: async ({ runtime, auth }) => ({
    documents: (await runtime.store.documents.list(auth.tenantId, { userId: auth.userId })).map(
      documentView,
    ),
  }),
});
