import { endpoints } from '@tandem/contracts';
import { createAdminService } from '../../../../server/admin-service';
import { createRoute } from '../../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Token usage and cost of the caller's tenant (the admin key decides the tenant, never a param).
export const GET = createRoute(endpoints.adminBilling, {
  handler: ({ query, auth, runtime }) =>
    createAdminService(runtime.store).billing(auth.tenantId, query),
});
