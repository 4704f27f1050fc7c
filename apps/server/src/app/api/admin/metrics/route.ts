import { endpoints } from '@tandem/contracts';
import { createAdminService } from '../../../../server/admin-service';
import { createRoute } from '../../../../server/create-route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The KPIs (docs/specs.md, "Metrics and KPIs") over the caller's tenant's tasks in a window.
export const GET = createRoute(endpoints.adminMetrics, {
  handler: ({ query, auth, runtime }) =>
    createAdminService(runtime.store).metrics(auth.tenantId, query),
});
