import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';
import { asUpload } from '../../../../server/tenant-slots';
import { ingestUpload } from '../_lib/ingest';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Upload a document into knowledge (multipart; the route reads its own body, capped).
export const POST = createRoute(endpoints.knowledgeIngest, {
  spendsTokens: true,
  handler: ({ request, runtime, auth }) =>
    asUpload(runtime, auth.tenantId, () => ingestUpload(request, runtime, auth)),
});
