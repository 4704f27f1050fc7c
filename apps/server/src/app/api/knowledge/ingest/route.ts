import { endpoints } from '@tandem/contracts';
import { createRoute } from '../../../../server/create-route';
import { INGESTIONS, inSlot } from '../../../../server/tenant-slots';
import { ingestUpload } from '../_lib/ingest';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Upload a document into knowledge (multipart; the route reads its own body, capped).
export const POST = createRoute(endpoints.knowledgeIngest, {
  spendsTokens: true,
  // The slot is taken before the body is read: a tenant's uploads wait in its own line.
  handler: ({ request, runtime, auth }) =>
    inSlot(
      runtime.store.idempotency,
      auth.tenantId,
      INGESTIONS,
      runtime.env.INGESTIONS_PER_TENANT,
      () => ingestUpload(request, runtime, auth),
    ),
});
